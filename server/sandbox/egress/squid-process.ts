import "server-only";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import path from "node:path";

/** Helpers for running squid on the host (egress-proxy.ts). */

/** Every address of this machine's interfaces: the proxy refuses names that resolve to them. */
export function hostAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => (entry.family === "IPv6" ? entry.address : `${entry.address}/32`));
}

/** Kills a squid left running by an earlier server from `dir` (its pid file), and removes the pid file. */
export async function stopStaleSquid(dir: string): Promise<void> {
  const pidFile = path.join(dir, "squid.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  try {
    const cmdline = Number.isInteger(pid) && pid > 1 ? readFileSync(`/proc/${pid}/cmdline`, "utf8") : "";
    if (cmdline.includes("squid")) {
      process.kill(pid, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  } catch {
    // Already gone.
  }
  // squid refuses to start while its pid file names a live process ("Squid is already running"):
  // the one killed above may not be reaped yet, and an old pid may belong to another process now.
  rmSync(pidFile, { force: true });
}

/** Resolves once something listens on host:port; fails when `gaveUp()` or after `timeoutMs`. */
export async function waitForPort(
  host: string,
  port: number,
  timeoutMs: number,
  gaveUp: () => boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gaveUp()) throw new Error("squid exited");
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port });
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs} ms`);
}
