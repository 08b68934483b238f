import { gitStatusSpec } from "@/server/domain/tools/git-status";
import { runGit } from "./git-run";
import { implementTool } from "./types";

export const gitStatus = implementTool(gitStatusSpec, {
  execute: (_input, runtime) =>
    runGit(runtime, "git -c core.quotePath=false status --short --branch", "git status", {
      empty: "(clean)",
      shape: (stdout) => {
        const lines = stdout.split("\n").filter((line) => line !== "");
        const branch = lines[0]?.startsWith("## ") ? lines[0].slice(3) : null;
        return { data: { branch, changes: branch === null ? lines : lines.slice(1) } };
      },
    }),
});
