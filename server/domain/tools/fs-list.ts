import { z } from "zod";
import { defineToolSpec, LOOKING_STAGES } from "./spec";
import { WorkspacePathInput } from "./workspace-path-input";

export const fsListSpec = defineToolSpec({
  name: "fs.list",
  risk: "safe",
  category: "read",
  stages: LOOKING_STAGES,
  readOnly: true,
  description: [
    "Lists a directory of the workspace: one entry per line, `d` for a directory or `f` for a file, then its path relative to /workspace, sorted.",
    "Without `path` it lists the workspace root. Set `recursive` to walk subdirectories (.git, node_modules and similar folders are shown but not entered).",
    "At most `limit` entries are returned (default 500); a note says when there were more.",
    "Use it to find files before reading them. Needs no approval and no active intent.",
  ].join(" "),
  input: z.strictObject({
    path: WorkspacePathInput.optional(),
    recursive: z.boolean().default(false).describe("Walk subdirectories too."),
    limit: z.number().int().min(1).max(5_000).default(500).describe("Most entries to return."),
  }),
  data: z.object({
    /** In `find`'s order sorted by path; a symbolic link counts as a file (it is not entered). */
    entries: z.array(z.object({ kind: z.enum(["directory", "file"]), path: z.string() })),
    /** There were more than `limit` entries; only the first `limit` are here. */
    more: z.boolean(),
  }),
  paths: (input) => (input.path === undefined ? [] : [input.path]),
  writes: false,
});
