import "server-only";
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type Docker from "dockerode";
import { HOME_DIR, ORIGIN_DIR } from "./container-spec";
import { SandboxError } from "./types";

/**
 * Copies the bare repo in through the Engine API (a tar stream, no bind mount), then clones it
 * inside. The copy stays as the clone's `origin`, so the agent's branch can be fetched back.
 */
export async function copyRepoInto(
  container: Docker.Container,
  repoPath: string,
  branch: string,
  run: (argv: string[]) => Promise<{ exitCode: number; stderr: string }>,
  wrap: (error: unknown, action: string) => SandboxError,
): Promise<void> {
  // GNU tar renames the root to origin.git and owns everything by the sandbox user.
  const tar = spawn(
    "tar",
    [
      "-C",
      repoPath,
      "-c",
      "--owner=1000",
      "--group=1000",
      "--numeric-owner",
      "--transform=s,^\\.,origin.git,S",
      ".",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let tarErr = "";
  tar.stderr.on("data", (chunk: Buffer) => {
    tarErr += chunk.toString("utf8");
  });
  // Never rejects, so a failed upload below cannot leave an unhandled rejection behind.
  const tarExit = new Promise<number>((resolve) => {
    tar.on("error", (error) => {
      tarErr += error.message;
      resolve(-1);
    });
    tar.on("close", (code) => resolve(code ?? 1));
  });
  try {
    await container.putArchive(tar.stdout as Readable, { path: HOME_DIR });
  } catch (error) {
    tar.kill();
    throw wrap(error, "copy the repository into the sandbox");
  }
  const code = await tarExit;
  if (code !== 0) throw new SandboxError("create_failed", `Cannot archive the repository: ${tarErr.trim()}`);

  // Check out the branch from origin when it exists there (a resumed session), else start it here.
  const script = [
    'git clone -q "$1" /workspace && cd /workspace || exit 1',
    'if git rev-parse -q --verify "refs/remotes/origin/$2" >/dev/null; then git checkout -q "$2"; else git checkout -q -b "$2"; fi',
  ].join("\n");
  const argv = ["bash", "-c", script, "arbor-clone", ORIGIN_DIR, branch];
  const result = await run(argv);
  if (result.exitCode !== 0) {
    throw new SandboxError(
      "create_failed",
      `Cannot clone the repository in the sandbox: ${result.stderr.trim()}`,
    );
  }
}

export async function assertBareRepo(repoPath: string): Promise<void> {
  const ok = await Promise.all(
    ["HEAD", "objects", "refs"].map((entry) =>
      stat(path.join(repoPath, entry)).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (!ok.every(Boolean)) {
    throw new SandboxError("invalid_argument", `Not a bare git repository: ${repoPath}.`);
  }
}
