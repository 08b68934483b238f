import { z } from "zod";
import { BranchName, runGit } from "./git-run";
import { defineTool } from "./types";

export const gitBranch = defineTool({
  name: "git.branch",
  risk: "moderate",
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
  execute: (input, runtime) =>
    runGit(
      runtime,
      `git branch --no-track ${input.name}${input.from === undefined ? "" : ` ${input.from}`} && echo "created branch ${input.name}"`,
      "git branch",
    ),
});
