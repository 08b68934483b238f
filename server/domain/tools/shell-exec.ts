import { z } from "zod";
import { CHANGING_STAGES, defineToolSpec } from "./spec";

export const shellExecSpec = defineToolSpec({
  name: "shell.exec",
  risk: "dangerous",
  category: "shell",
  // Verification runs the project's tests, so it needs a shell, but never the file-writing tools.
  stages: [...CHANGING_STAGES, "verify"],
  readOnly: false,
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
});
