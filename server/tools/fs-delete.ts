import { fsDeleteSpec } from "@/server/domain/tools/fs-delete";
import { quotedPath, relativePath } from "./paths";
import { combinedOutput, execIn, isFailure } from "./sandbox-calls";
import { implementTool } from "./types";

export const fsDelete = implementTool(fsDeleteSpec, {
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
