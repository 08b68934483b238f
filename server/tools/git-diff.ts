import { gitDiffSpec } from "@/server/domain/tools/git-diff";
import { runGit } from "./git-run";
import { quotedPath } from "./paths";
import { implementTool } from "./types";

export const gitDiff = implementTool(gitDiffSpec, {
  execute: (input, runtime) => {
    const cached = input.staged ? " --cached" : "";
    const limit = input.path === undefined ? "" : ` -- ${quotedPath(input.path)}`;
    return runGit(
      runtime,
      `git -c core.quotePath=false diff --no-color --no-ext-diff --no-textconv${cached}${limit}`,
      "git diff",
      { empty: input.staged ? "(nothing staged)" : "(no unstaged changes)" },
    );
  },
});
