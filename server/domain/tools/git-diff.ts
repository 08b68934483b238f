import { z } from "zod";
import { defineToolSpec, LOOKING_STAGES } from "./spec";
import { WorkspacePathInput } from "./workspace-path-input";

export const gitDiffSpec = defineToolSpec({
  name: "git.diff",
  risk: "safe",
  category: "git-read",
  stages: LOOKING_STAGES,
  readOnly: true,
  description: [
    "Shows changes as a unified diff: by default the working tree against the index (what is not staged yet);",
    "with `staged` the index against HEAD (what git.commit would commit). Give `path` to limit it to one file or directory.",
    "An empty answer means no changes. Needs no approval and no active intent.",
  ].join(" "),
  input: z.strictObject({
    staged: z.boolean().default(false).describe("Show what is staged for the next commit."),
    path: WorkspacePathInput.optional(),
  }),
  paths: (input) => (input.path === undefined ? [] : [input.path]),
  writes: false,
});
