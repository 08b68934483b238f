import { setupRunSpec } from "@/server/domain/tools/setup-run";
import { combinedOutput, commandFailure, execIn, isFailure } from "./sandbox-calls";
import { implementTool } from "./types";

/** Installing a project's dependencies may take a while; the agent's commands keep their own limit. */
const SETUP_TIMEOUT_MS = 15 * 60 * 1000;

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
    if (result.exitCode !== 0 || result.timedOut || result.aborted)
      return commandFailure(result, "The setup command");
    return { ok: true, output: combinedOutput(result), exitCode: 0 };
  },
});
