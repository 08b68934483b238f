import { z } from "zod";
import { BranchName } from "./branch-name";
import { CHANGING_STAGES, defineToolSpec } from "./spec";

export const gitCheckoutSpec = defineToolSpec({
  name: "git.checkout",
  // Checkout can throw away uncommitted work in one call, so it ranks with delete.
  risk: "dangerous",
  category: "git-write",
  stages: CHANGING_STAGES,
  readOnly: false,
  description: [
    "Switches the working tree to branch `branch`; with `create` it creates that branch at the current commit first.",
    "It never discards work: git refuses when uncommitted changes would be overwritten (commit them first), and there is no force option.",
    "It switches branches only; to restore a file's content, edit it.",
    "Dangerous: a person confirms it every time unless the project pre-approves git changes (a pre-approval for one run does not cover checkouts). Needs an active intent.",
  ].join(" "),
  input: z.strictObject({
    branch: BranchName,
    create: z.boolean().default(false).describe("Create the branch before switching to it."),
  }),
  paths: () => [],
  writes: false,
});
