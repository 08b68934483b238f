import { z } from "zod";
import { runGit } from "./git-run";
import { defineTool } from "./types";

export const gitStatus = defineTool({
  name: "git.status",
  risk: "safe",
  description: [
    "Shows the repository's state in short form: the first line is the branch (`## branch...upstream`),",
    "then one line per changed file: `M` modified, `A` added, `D` deleted, `??` untracked; the left column is the index (staged), the right the working tree.",
    "Use it before git.add and git.commit. Needs no approval and no active intent.",
  ].join(" "),
  input: z.strictObject({}),
  paths: () => [],
  writes: false,
  execute: (_input, runtime) =>
    runGit(runtime, "git -c core.quotePath=false status --short --branch", "git status", {
      empty: "(clean)",
    }),
});
