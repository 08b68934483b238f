import { gitStatusSpec } from "@/server/domain/tools/git-status";
import { runGit } from "./git-run";
import { implementTool } from "./types";

export const gitStatus = implementTool(gitStatusSpec, {
  execute: (_input, runtime) =>
    runGit(runtime, "git -c core.quotePath=false status --short --branch", "git status", {
      empty: "(clean)",
    }),
});
