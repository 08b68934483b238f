import { gitCommitSpec } from "@/server/domain/tools/git-commit";
import { secretsInStagedDiff } from "@/server/git/staged-secrets";
import { runGit } from "./git-run";
import { execIn, isFailure } from "./sandbox-calls";
import { implementTool } from "./types";

export const gitCommit = implementTool(gitCommitSpec, {
  async inspect(_input, runtime) {
    const staged = await execIn(
      runtime,
      "git -c core.quotePath=false diff --cached --unified=0 --no-color --no-ext-diff",
      {
        maxOutputBytes: 4 * 1024 * 1024,
      },
    );
    if (isFailure(staged) || staged.exitCode !== 0)
      return { secretFindings: [], preview: "(the staged diff could not be read)" };
    return { secretFindings: secretsInStagedDiff(staged.stdout), preview: staged.stdout.slice(0, 20_000) };
  },
  execute: (input, runtime) =>
    runGit(
      runtime,
      // The message travels on stdin (`-F -`): whatever it contains, it is never read as an option.
      "git diff --cached --quiet && { echo 'nothing is staged; use git.add first' >&2; exit 1; }; git commit -q -F - && git log -1 --format='%h %s'",
      "git commit",
      { stdin: input.message },
    ),
});
