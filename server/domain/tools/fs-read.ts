import { z } from "zod";
import { defineToolSpec, LOOKING_STAGES } from "./spec";
import { WorkspacePathInput } from "./workspace-path-input";

export const fsReadSpec = defineToolSpec({
  name: "fs.read",
  risk: "safe",
  category: "read",
  stages: LOOKING_STAGES,
  readOnly: true,
  description: [
    "Reads a text file in the workspace and returns its lines, each prefixed with its line number.",
    "Use it before editing a file, so fs.edit's search text matches exactly.",
    "For a long file give `startLine` and `lineCount` to read one part; output past 256 KB is cut and says so.",
    "Fails with not_found when the file does not exist and not_a_file for a directory (use fs.list).",
    "Needs no approval and no active intent.",
    "`exact: true` returns the whole file (at most 1 MiB) as base64 instead, byte for byte; the workspace editor uses it, you rarely need it.",
  ].join(" "),
  input: z.strictObject({
    path: WorkspacePathInput,
    startLine: z.number().int().min(1).optional().describe("First line to return (1-based)."),
    lineCount: z.number().int().min(1).max(10_000).optional().describe("How many lines to return."),
    exact: z.boolean().optional().describe("Return the whole file as base64 (no line numbers)."),
  }),
  /** Numbered reads only (an `exact` read's output is the base64 itself): the lines as in the file. */
  data: z.object({
    /** The lines read, without their numbers, each ending in a line break. */
    text: z.string(),
    firstLine: z.number().int().min(1),
    /** The output cap cut the read: `text` ends early. */
    truncated: z.boolean(),
  }),
  paths: (input) => [input.path],
  writes: false,
});
