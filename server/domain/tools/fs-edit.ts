import { z } from "zod";
import { CHANGING_STAGES, defineToolSpec } from "./spec";
import { WorkspacePathInput } from "./workspace-path-input";

export const fsEditSpec = defineToolSpec({
  name: "fs.edit",
  risk: "moderate",
  category: "write",
  stages: CHANGING_STAGES,
  readOnly: false,
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
});
