import "server-only";
import type { Sandbox } from "../types";

/**
 * Whether a sandbox found again runs a command: a fixed `true`, the system's own probe after its host
 * answered again (never the agent's; the one door's allow-list names it). False when it fails, times
 * out or cannot start.
 */
export async function sandboxAnswers(sandbox: Sandbox): Promise<boolean> {
  const result = await sandbox.exec("true", { timeoutMs: 30_000 }).catch(() => null);
  return result?.exitCode === 0;
}
