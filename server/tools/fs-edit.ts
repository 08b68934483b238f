import { z } from "zod";
import { errorMessage } from "@/server/domain/errors";
import { applyEdit } from "@/server/domain/text/edit-text";
import { detectSecrets } from "@/server/governance/secrets";
import { quotedPath, relativePath, WorkspacePathInput } from "./paths";
import { execIn, isFailure } from "./sandbox-calls";
import { defineTool } from "./types";
import { writeChecked } from "./write-file";

export const fsEdit = defineTool({
  name: "fs.edit",
  risk: "moderate",
  description: [
    "Changes part of an existing file: replaces the exact text `search` with `replace`.",
    "`search` must occur exactly once (whitespace and line breaks count); if it is missing or occurs more than once, nothing changes",
    "and the error says which, with the line numbers. Include enough surrounding lines to make it unique, or set `all` to replace every occurrence.",
    "Read the file with fs.read first. To create a file use fs.write.",
    "Needs an active intent and a path inside its owned scope; moderate risk, approved like fs.write; protected paths always ask.",
  ].join(" "),
  input: z.strictObject({
    path: WorkspacePathInput,
    search: z
      .string()
      .min(1, "the search text must not be empty")
      .max(1_000_000)
      .describe("Text to find, exactly as in the file."),
    replace: z.string().max(1_000_000).describe("Text to put in its place (may be empty to delete it)."),
    all: z.boolean().default(false).describe("Replace every occurrence instead of requiring exactly one."),
  }),
  paths: (input) => [input.path],
  writes: true,
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
