import { z } from "zod";

/**
 * The container runtimes a project may choose for its sandboxes: hardened runc (Docker's default) or
 * gVisor (`runsc`), whose own kernel stands between the project's code and the host's. Debian's runsc
 * is registered with `--network=none` (scripts/ensure-runsc.sh), so a gVisor sandbox has no network.
 * Shared by the server and the browser: no server-only imports here.
 */
export const SANDBOX_RUNTIMES = ["runc", "runsc"] as const;
export const SandboxRuntime = z.enum(SANDBOX_RUNTIMES);
export type SandboxRuntime = z.infer<typeof SandboxRuntime>;
export const DEFAULT_SANDBOX_RUNTIME: SandboxRuntime = "runc";

export const RUNTIME_LABELS: Record<SandboxRuntime, string> = {
  runc: "runc (hardened)",
  runsc: "gVisor (offline)",
};

/**
 * Reads a stored value. Absent means the default; anything else unknown means gVisor, the stricter
 * choice: a damaged setting never quietly loosens a project's isolation.
 */
export function readSandboxRuntime(value: unknown): SandboxRuntime {
  if (value === null || value === undefined || value === "") return DEFAULT_SANDBOX_RUNTIME;
  const parsed = SandboxRuntime.safeParse(value);
  return parsed.success ? parsed.data : "runsc";
}
