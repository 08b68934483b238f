import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The real git server of testing/git-server/start.sh (nginx + fcgiwrap + `git http-backend`, basic
 * auth) for a test: bare repositories to serve, a pre-receive hook for a protected branch, and stop.
 */

const HERE = import.meta.dirname;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface TestGitServer {
  dir: string;
  user: string;
  token: string;
  /** http://127.0.0.1:<port>/git/<name>.git */
  urlOf(name: string): string;
  /** A bare repository `name` whose main has one commit (a README). */
  createRepository(name: string): Promise<string>;
  /** A pre-receive hook in `name` refusing pushes to `branch`, with a reason on stderr. */
  protect(name: string, branch: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestGitServer(ports?: { http: number; fcgi: number }): Promise<TestGitServer> {
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-git-server-"));
  const user = "arbor-test";
  const token = `ghp_test${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const http = ports?.http ?? (await freePort());
  const fcgi = ports?.fcgi ?? (await freePort());
  execFileSync("bash", [path.join(HERE, "start.sh"), dir, String(http), String(fcgi), user, token], {
    stdio: "pipe",
  });
  const git = (args: string[], cwd?: string) =>
    execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@localhost", ...args], {
      cwd,
      stdio: "pipe",
    });
  return {
    dir,
    user,
    token,
    urlOf: (name) => `http://127.0.0.1:${http}/git/${name}.git`,
    async createRepository(name) {
      const bare = path.join(dir, "repos", `${name}.git`);
      git(["init", "-q", "--bare", "--initial-branch=main", bare]);
      const work = await mkdtemp(path.join(tmpdir(), "arbor-git-seed-"));
      try {
        git(["init", "-q", "--initial-branch=main", work]);
        await writeFile(path.join(work, "README.md"), `# ${name}\n`);
        git(["add", "README.md"], work);
        git(["commit", "-q", "-m", "Initial commit"], work);
        git(["push", "-q", bare, "HEAD:main"], work);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
      return bare;
    },
    async protect(name, branch) {
      const hook = path.join(dir, "repos", `${name}.git`, "hooks", "pre-receive");
      await writeFile(
        hook,
        [
          "#!/bin/sh",
          "while read old new ref; do",
          `  if [ "$ref" = "refs/heads/${branch}" ]; then`,
          `    echo "${branch} is a protected branch: open a pull request instead" >&2`,
          "    exit 1",
          "  fi",
          "done",
          "",
        ].join("\n"),
        { mode: 0o755 },
      );
    },
    async stop() {
      execFileSync("bash", [path.join(HERE, "stop.sh"), dir], { stdio: "pipe" });
      await rm(dir, { recursive: true, force: true });
    },
  };
}
