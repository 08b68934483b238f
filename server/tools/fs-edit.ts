import { errorMessage } from "@/server/domain/errors";
import { applyEdit } from "@/server/domain/text/edit-text";
import { fsEditSpec } from "@/server/domain/tools/fs-edit";
import { detectSecrets } from "@/server/governance/secrets";
import { quotedPath, relativePath } from "./paths";
import { execIn, isFailure } from "./sandbox-calls";
import { implementTool } from "./types";
import { writeChecked } from "./write-file";

export const fsEdit = implementTool(fsEditSpec, {
  inspect: async (input) => ({ secretFindings: detectSecrets(input.replace, { fileName: input.path }) }),
  async execute(input, runtime) {
    const name = relativePath(input.path);
    const exists = await execIn(runtime, `test -f ${quotedPath(input.path)}`);
    if (isFailure(exists)) return exists.failure;
    if (exists.exitCode !== 0)
      return {
        ok: false,
        code: "not_found",
        message: `${name} does not exist (or is not a file); fs.write creates files.`,
      };
    let content: string;
    try {
      content = await runtime.sandbox.readFile(input.path);
    } catch (error) {
      return { ok: false, code: "sandbox_error", message: `Could not read ${name}: ${errorMessage(error)}` };
    }
    const edited = applyEdit(content, input, name);
    if (!edited.ok) return { ok: false, code: edited.code, message: edited.message };
    const failed = await writeChecked(runtime, input.path, edited.content);
    if (failed) return failed;
    const count = edited.replacements === 1 ? "1 replacement" : `${edited.replacements} replacements`;
    return { ok: true, output: `Edited ${name}: ${count}, first at line ${edited.firstLine}.` };
  },
});
