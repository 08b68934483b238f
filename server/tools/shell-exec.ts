import { z } from "zod";
import { combinedOutput, commandFailure, execIn, isFailure } from "./sandbox-calls";
import { defineTool } from "./types";
import { workspaceOverCap } from "./workspace-size";

export const shellExec = defineTool({
  name: "shell.exec",
  risk: "dangerous",
  description: [
    "Runs one POSIX shell command line with bash in /workspace (Linux, no network unless the project enables it) and returns its output (stdout, then stderr).",
    "Exit code 0 is success; any other exit code comes back as command_failed with the output, so you can read what went wrong.",
    "The command is killed at the time limit (timeout) together with everything it started; long output keeps its head and tail around a marker.",
    "Prefer the fs.* and git.* tools for reading, searching, writing and committing: they are checked more precisely and ask less.",
    "Every part of the line (`&&`, `||`, `;`, `|`, newlines) is judged: read-only programs may run without a click, anything else asks a person,",
    "command substitution, `eval` and `bash -c` are never approved automatically, and commands that force-push or rewrite git history are refused.",
    "Needs an active intent.",
  ].join(" "),
  input: z.strictObject({
    command: z
      .string()
      .max(10_000)
      .regex(/\S/, "the command must not be blank")
      .describe("One shell command line, run in /workspace."),
  }),
  paths: () => [],
  writes: false,
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
