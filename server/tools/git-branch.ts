import { gitBranchSpec } from "@/server/domain/tools/git-branch";
import { runGit } from "./git-run";
import { implementTool } from "./types";

export const gitBranch = implementTool(gitBranchSpec, {
  execute: (input, runtime) =>
    runGit(
      runtime,
      `git branch --no-track ${input.name}${input.from === undefined ? "" : ` ${input.from}`} && echo "created branch ${input.name}"`,
      "git branch",
    ),
});
