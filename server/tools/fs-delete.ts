import { z } from "zod";
import { quotedPath, relativePath, WorkspacePathInput } from "./paths";
import { combinedOutput, execIn, isFailure } from "./sandbox-calls";
import { defineTool } from "./types";

export const fsDelete = defineTool({
  name: "fs.delete",
  risk: "dangerous",
  description: [
    "Deletes one file (or symbolic link) from the workspace. It does not delete directories.",
    "Irreversible unless the file is committed in git. Dangerous: a person must confirm it every time",
    "unless the project pre-approves file changes (a pre-approval for one run does not cover deletes); protected paths always ask.",
    "Needs an active intent and a path inside its owned scope. Fails with not_found when the file does not exist.",
  ].join(" "),
  input: z.strictObject({ path: WorkspacePathInput }),
  paths: (input) => [input.path],
  writes: true,
  // `rm` removes a symbolic link, never its target: the link is what is judged and deleted.
  actsOnEntry: true,
  async execute(input, runtime) {
    const file = quotedPath(input.path);
    const name = relativePath(input.path);
    const result = await execIn(
      runtime,
      [
        `if [ -d ${file} ] && [ ! -L ${file} ]; then echo "is a directory" >&2; exit 3; fi`,
        `if [ ! -e ${file} ] && [ ! -L ${file} ]; then echo "no such file" >&2; exit 2; fi`,
        `rm -- ${file}`,
      ].join("\n"),
    );
    if (isFailure(result)) return result.failure;
    if (result.exitCode === 2) return { ok: false, code: "not_found", message: `${name} does not exist.` };
    if (result.exitCode === 3)
      return {
        ok: false,
        code: "not_a_file",
        message: `${name} is a directory; fs.delete deletes files only.`,
      };
    if (result.exitCode !== 0)
      return {
        ok: false,
        code: "command_failed",
        message: `Could not delete ${name}.`,
        output: combinedOutput(result),
      };
    return { ok: true, output: `Deleted ${name}.` };
  },
});
