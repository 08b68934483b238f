import { z } from "zod";
import { BranchName } from "./branch-name";
import { CHANGING_STAGES, defineToolSpec } from "./spec";

export const gitBranchSpec = defineToolSpec({
  name: "git.branch",
  risk: "moderate",
  category: "git-write",
  stages: CHANGING_STAGES,
  readOnly: false,
  description: [
    "Creates a new branch `name` at `from` (default: the current commit) without switching to it; use git.checkout to switch.",
    "It never deletes, renames or moves an existing branch: creating a name that exists fails.",
    "Needs an active intent; moderate risk: a person approves it unless git-write tools are pre-approved.",
  ].join(" "),
  input: z.strictObject({
    name: BranchName,
    from: BranchName.optional().describe("The branch or commit to start from."),
  }),
  paths: () => [],
  writes: false,
});
