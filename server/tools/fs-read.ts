import { z } from "zod";
import { quotedPath, relativePath, WorkspacePathInput } from "./paths";
import { combinedOutput, execIn, isFailure, noteTruncation } from "./sandbox-calls";
import { defineTool } from "./types";

const MAX_READ_BYTES = 256 * 1024;

export const fsRead = defineTool({
  name: "fs.read",
  risk: "safe",
  description: [
    "Reads a text file in the workspace and returns its lines, each prefixed with its line number.",
    "Use it before editing a file, so fs.edit's search text matches exactly.",
    "For a long file give `startLine` and `lineCount` to read one part; output past 256 KB is cut and says so.",
    "Fails with not_found when the file does not exist and not_a_file for a directory (use fs.list).",
    "Needs no approval and no active intent.",
  ].join(" "),
  input: z.strictObject({
    path: WorkspacePathInput,
    startLine: z.number().int().min(1).optional().describe("First line to return (1-based)."),
    lineCount: z.number().int().min(1).max(10_000).optional().describe("How many lines to return."),
  }),
  paths: (input) => [input.path],
  writes: false,
  async execute(input, runtime) {
    const file = quotedPath(input.path);
    const first = input.startLine ?? 1;
    const last = input.lineCount === undefined ? 0 : first + input.lineCount - 1;
    const command = [
      `if [ -d ${file} ]; then echo "is a directory" >&2; exit 3; fi`,
      `if [ ! -e ${file} ]; then echo "no such file" >&2; exit 2; fi`,
      `awk -v first=${first} -v last=${last} 'last && NR > last { exit } NR >= first { printf "%6d\\t%s\\n", NR, $0 }' ${file}`,
    ].join("\n");
    const result = await execIn(runtime, command, { maxOutputBytes: MAX_READ_BYTES });
    if (isFailure(result)) return result.failure;
    const name = relativePath(input.path);
    if (result.exitCode === 2) return { ok: false, code: "not_found", message: `${name} does not exist.` };
    if (result.exitCode === 3)
      return { ok: false, code: "not_a_file", message: `${name} is a directory; use fs.list to see it.` };
    if (result.exitCode !== 0)
      return {
        ok: false,
        code: "command_failed",
        message: `Could not read ${name}: ${result.stderr.trim().slice(0, 300)}`,
        output: combinedOutput(result),
      };
    const body = result.stdout === "" ? `(${name} is empty or has no lines from ${first} on)` : result.stdout;
    return { ok: true, output: noteTruncation(body, result.truncated) };
  },
});
