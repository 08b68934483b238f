import { shellExecSpec } from "@/server/domain/tools/shell-exec";
import { combinedOutput, commandFailure, execIn, isFailure } from "./sandbox-calls";
import { implementTool } from "./types";
import { workspaceOverCap } from "./workspace-size";

export const shellExec = implementTool(shellExecSpec, {
  async execute(input, runtime) {
    const result = await execIn(
      runtime,
      input.command,
      runtime.onOutput ? { onOutput: runtime.onOutput } : {},
    );
    if (isFailure(result)) return result.failure;
    // A command may grow /workspace past the project's cap (Docker cannot cap a directory on
    // overlay2/ext4): measured after it, and over the cap the command fails whatever it exited with.
    // A stopped or timed-out command reports that first; the cap is checked again after the next one.
    const overCap =
      result.aborted || result.timedOut
        ? null
        : await workspaceOverCap(runtime, combinedOutput(result), result.exitCode);
    if (overCap) return overCap;
    if (result.exitCode !== 0 || result.timedOut || result.aborted)
      return commandFailure(result, "The command");
    return { ok: true, output: combinedOutput(result), exitCode: 0 };
  },
});
