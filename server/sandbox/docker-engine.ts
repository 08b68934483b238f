import "server-only";
import type Docker from "dockerode";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { SandboxError } from "./types";

/** Facts about the Docker engine itself, asked of it directly (the provider wraps their errors). */

/** Where the engine is expected, for error messages (never includes credentials). */
export function engineAddressOf(docker: Docker): string {
  const modem = docker.modem as unknown as { socketPath?: unknown; host?: unknown; port?: unknown };
  if (typeof modem.socketPath === "string") return modem.socketPath;
  if (typeof modem.host === "string") return `${modem.host}${modem.port ? `:${modem.port}` : ""}`;
  return "the default Docker socket";
}

/** Pings the engine, failing with ETIMEDOUT after 5 s. */
export async function pingEngine(docker: Docker): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })), 5_000);
  });
  try {
    await Promise.race([docker.ping(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The runtimes the engine offers (`docker info`), e.g. ["runc", "runsc"]. */
export async function engineRuntimes(docker: Docker): Promise<string[]> {
  const info = (await docker.info()) as { Runtimes?: Record<string, unknown> };
  return Object.keys(info.Runtimes ?? {});
}

/** gVisor needs the engine to have it registered, and never has a network on these engines. */
export async function assertRuntimeUsable(
  runtime: SandboxRuntime,
  allowNetwork: boolean,
  runtimes: () => Promise<string[]>,
): Promise<void> {
  if (allowNetwork)
    throw new SandboxError(
      "invalid_argument",
      "A gVisor (runsc) sandbox has no network: choose runc for a session that needs one.",
    );
  if (!(await runtimes()).includes(runtime))
    throw new SandboxError(
      "unavailable",
      `The Docker engine has no ${runtime} runtime (gVisor). Run scripts/ensure-runsc.sh as root on the server, or choose runc in the project's settings.`,
    );
}
