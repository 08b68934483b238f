import { z } from "zod";
import { CHANGING_STAGES, defineToolSpec } from "./spec";

export const gitCommitSpec = defineToolSpec({
  name: "git.commit",
  risk: "moderate",
  category: "git-write",
  stages: CHANGING_STAGES,
  readOnly: false,
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
});
