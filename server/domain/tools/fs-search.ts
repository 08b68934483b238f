import { z } from "zod";
import { defineToolSpec, LOOKING_STAGES } from "./spec";
import { WorkspacePathInput } from "./workspace-path-input";

export const fsSearchSpec = defineToolSpec({
  name: "fs.search",
  risk: "safe",
  category: "read",
  stages: LOOKING_STAGES,
  readOnly: true,
  description: [
    "Searches file contents in the workspace and returns matching lines as `path:line:text`.",
    "`pattern` is literal text by default; set `regex` to use an extended regular expression.",
    "Without `path` it searches the whole workspace (.git and node_modules are skipped; binary files are ignored).",
    "Returns at most `maxResults` lines (default 100). No match is a normal answer, not an error.",
    "Use it to find where something is defined or used. Needs no approval and no active intent.",
  ].join(" "),
  input: z.strictObject({
    pattern: z.string().min(1).max(1_000).describe("The text (or regular expression) to look for."),
    path: WorkspacePathInput.optional(),
    regex: z.boolean().default(false).describe("Treat the pattern as an extended regular expression."),
    ignoreCase: z.boolean().default(false),
    maxResults: z.number().int().min(1).max(1_000).default(100),
  }),
  data: z.object({
    matches: z.array(z.object({ path: z.string(), line: z.number().int().min(1), text: z.string() })),
    /** There were more than `maxResults` matches; only the first `maxResults` are here. */
    more: z.boolean(),
  }),
  paths: (input) => (input.path === undefined ? [] : [input.path]),
  writes: false,
});
