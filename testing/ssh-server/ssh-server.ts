import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";

/**
 * A throwaway OpenSSH server on loopback for a test (Debian's `openssh-server`): its own host key, one
 * account (the test's own user) that only the deploy key opens and that can only run git (a forced
 * `git-shell`), and `restartWithNewHostKey` to play a server whose identity changed. Repositories are
 * addressed by absolute path: `ssh://<user>@127.0.0.1:<port>/<path>`.
 */
export interface TestSshServer {
  /** The deploy key's private half (OpenSSH format), what an admin pastes into Arbor. */
  deployKey: string;
  urlOf(repositoryPath: string): string;
  /** Everything sshd logged (-e), to check that no key material appears. */
  log(): string;
  restartWithNewHostKey(): Promise<void>;
  stop(): Promise<void>;
}

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

async function waitForPort(port: number, deadlineMs = 5_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sshd did not listen on ${port}`);
}

const keygen = (file: string) =>
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "arbor-test", "-f", file], {
    stdio: "pipe",
  });

export async function startTestSshServer(): Promise<TestSshServer> {
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-sshd-"));
  const port = await freePort();
  const user = userInfo().username;
  keygen(path.join(dir, "deploy-key"));
  const publicKey = (await readFile(path.join(dir, "deploy-key.pub"), "utf8")).trim();
  // Whatever the client asks, only git-shell runs: no shell, no forwarding, no pty.
  await writeFile(
    path.join(dir, "authorized_keys"),
    `command="git-shell -c \\"$SSH_ORIGINAL_COMMAND\\"",restrict ${publicKey}\n`,
    { mode: 0o600 },
  );
  // The privilege separation directory sshd insists on when started as root.
  if (process.getuid?.() === 0) await mkdir("/run/sshd", { recursive: true, mode: 0o755 });
  const config = [
    `Port ${port}`,
    "ListenAddress 127.0.0.1",
    `HostKey ${path.join(dir, "host-key")}`,
    `PidFile ${path.join(dir, "sshd.pid")}`,
    `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
    `AllowUsers ${user}`,
    "PermitRootLogin forced-commands-only",
    "PubkeyAuthentication yes",
    "PasswordAuthentication no",
    "KbdInteractiveAuthentication no",
    "UsePAM no",
    // The temporary directory lives under the world-writable /tmp, which strict modes refuse.
    "StrictModes no",
    "LogLevel VERBOSE",
  ].join("\n");
  await writeFile(path.join(dir, "sshd_config"), `${config}\n`);
  let output = "";
  let sshd: ChildProcess | null = null;
  const start = async () => {
    keygen(path.join(dir, "host-key"));
    sshd = spawn("/usr/sbin/sshd", ["-D", "-e", "-f", path.join(dir, "sshd_config")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    sshd.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    sshd.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await waitForPort(port);
  };
  const stop = async () => {
    const running = sshd;
    sshd = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    deployKey: await readFile(path.join(dir, "deploy-key"), "utf8"),
    urlOf: (repositoryPath) => `ssh://${user}@127.0.0.1:${port}${repositoryPath}`,
    log: () => output,
    async restartWithNewHostKey() {
      await stop();
      await rm(path.join(dir, "host-key"), { force: true });
      await rm(path.join(dir, "host-key.pub"), { force: true });
      await start();
    },
    async stop() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
