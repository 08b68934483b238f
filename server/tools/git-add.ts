import { gitAddSpec } from "@/server/domain/tools/git-add";
import { runGit } from "./git-run";
import { quotedPath } from "./paths";
import { implementTool } from "./types";

export const gitAdd = implementTool(gitAddSpec, {
  execute: (input, runtime) =>
    runGit(
      runtime,
      `git --literal-pathspecs add -A -- ${input.paths.map(quotedPath).join(" ")} && git -c core.quotePath=false status --short`,
      "git add",
      { empty: "(nothing to stage)" },
    ),
});
