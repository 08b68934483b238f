import { z } from "zod";
import { BranchName, runGit } from "./git-run";
import { defineTool } from "./types";

export const gitCheckout = defineTool({
  name: "git.checkout",
  risk: "dangerous",
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
  execute: (input, runtime) =>
    runGit(
      runtime,
      `git switch --no-guess ${input.create ? "-c " : ""}${input.branch} 2>&1 && git rev-parse --abbrev-ref HEAD`,
      "git checkout",
    ),
});
