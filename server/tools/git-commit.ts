import { z } from "zod";
import { secretsInStagedDiff } from "@/server/git/staged-secrets";
import { runGit } from "./git-run";
import { execIn, isFailure } from "./sandbox-calls";
import { defineTool } from "./types";

export const gitCommit = defineTool({
  name: "git.commit",
  risk: "moderate",
  description: [
    "Commits what is staged (see git.add) with `message` on the current branch and returns the new commit's one-line summary.",
    "It only ever adds a commit: it cannot amend, rebase, reset or push, and there is no option to.",
    "Fails when nothing is staged. A person approves it after seeing the staged diff and the message;",
    "staged content that looks like a secret (.env files, private keys, tokens) is flagged for their explicit decision.",
    "Needs an active intent.",
  ].join(" "),
  input: z.strictObject({
    message: z
      .string()
      .max(10_000)
      .regex(/\S/, "the commit message must not be blank")
      .describe("The commit message: a short subject line, optionally a blank line and a body."),
  }),
  paths: () => [],
  writes: false,
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
