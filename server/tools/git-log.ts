import { gitLogSpec } from "@/server/domain/tools/git-log";
import { runGit } from "./git-run";
import { quotedPath } from "./paths";
import { implementTool } from "./types";

export const gitLog = implementTool(gitLogSpec, {
  execute: (input, runtime) => {
    const limit = input.path === undefined ? "" : ` -- ${quotedPath(input.path)}`;
    return runGit(
      runtime,
      `if git rev-parse --verify -q HEAD >/dev/null; then git log --no-color --format='%h %ad %an: %s' --date=short -n ${input.limit}${limit}; else echo '(no commits yet)'; fi`,
      "git log",
      {
        empty: "(no commits yet)",
        shape: (stdout) => ({
          data: { commits: stdout.split("\n").filter((line) => line !== "" && line !== "(no commits yet)") },
        }),
      },
    );
  },
});
