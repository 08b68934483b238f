import { setupRunSpec } from "@/server/domain/tools/setup-run";
import { combinedOutput, commandFailure, execIn, isFailure } from "./sandbox-calls";
import { implementTool } from "./types";

/** Installing a project's dependencies may take a while; the agent's commands keep their own limit. */
const SETUP_TIMEOUT_MS = 15 * 60 * 1000;

/** Corepack's refusals when the registry's metadata carries no signature it can check. */
const COREPACK_UNVERIFIED = /No compatible signature found in package metadata|Cannot find matching keyid/;

/**
 * What a person can do about a setup failure whose cause is known and outside the project: corepack
 * (pnpm and yarn) refuses a package manager whose registry metadata has no npm signature it trusts —
 * a registry mirror or proxy that strips `dist.signatures` (Artifactory and some caching proxies do).
 */
export function setupFailureHint(output: string): string | null {
  if (!COREPACK_UNVERIFIED.test(output)) return null;
  return "Corepack could not verify the package manager (pnpm or yarn): the npm registry, or a proxy in front of it, serves its metadata without npm's signatures. Use a registry that keeps them, or — accepting an unverified package manager — add the setup secret COREPACK_INTEGRITY_KEYS with the value 0 in the project's settings (Network and setup).";
}

/**
 * The project's setup command (install dependencies), run once when a session's workspace is made.
 * Never offered to a model (SERVER_ONLY_TOOLS); the gate always asks, and only the approval a person
 * gave the exact command in the project's settings lets it run. It runs with the setup phase's
 * network and the project's setup secrets as environment variables (ToolRuntime.env), which are not
 * part of its input and so appear in no event.
 */
export const setupRun = implementTool(setupRunSpec, {
  async execute(input, runtime) {
    const result = await execIn(runtime, input.command, {
      timeoutMs: Math.max(runtime.timeoutMs, SETUP_TIMEOUT_MS),
      // Its output streams to the session's page while it runs, like a command's.
      ...(runtime.onOutput ? { onOutput: runtime.onOutput } : {}),
    });
    if (isFailure(result)) return result.failure;
    if (result.exitCode !== 0 || result.timedOut || result.aborted) {
      const failure = commandFailure(result, "The setup command");
      const hint = setupFailureHint(failure.output ?? "");
      return hint ? { ...failure, message: `${failure.message} ${hint}` } : failure;
    }
    return { ok: true, output: combinedOutput(result), exitCode: 0 };
  },
});
