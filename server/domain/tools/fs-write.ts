import { z } from "zod";
import { CHANGING_STAGES, defineToolSpec } from "./spec";
import { WorkspacePathInput } from "./workspace-path-input";

export const fsWriteSpec = defineToolSpec({
  name: "fs.write",
  risk: "moderate",
  category: "write",
  stages: CHANGING_STAGES,
  readOnly: false,
  description: [
    "Creates a file, or replaces a file's whole content, with exactly `content` (missing parent directories are created).",
    "To change part of an existing file prefer fs.edit, which cannot drop the rest of it by accident.",
    "Works under the active intent (in a run, the intention being worked, which the engine selects for you): the path must be inside its owned scope.",
    "Moderate risk: a person approves it unless the path is in a scope approved with the decomposition;",
    "protected paths (.git, .orchestration, package.json, .env, CI workflows, hooks) always ask.",
    "Refused when the write would take /workspace over its size cap.",
  ].join(" "),
  input: z.strictObject({
    path: WorkspacePathInput,
    content: z
      .string()
      .max(8 * 1024 * 1024)
      .describe("The file's complete new content."),
  }),
  paths: (input) => [input.path],
  writes: true,
});
