import { z } from "zod";
import { defineToolSpec, LOOKING_STAGES } from "./spec";

export const gitStatusSpec = defineToolSpec({
  name: "git.status",
  risk: "safe",
  category: "git-read",
  stages: LOOKING_STAGES,
  readOnly: true,
  description: [
    "Shows the repository's state in short form: the first line is the branch (`## branch...upstream`),",
    "then one line per changed file: `M` modified, `A` added, `D` deleted, `??` untracked; the left column is the index (staged), the right the working tree.",
    "Use it before git.add and git.commit. Needs no approval and no active intent.",
  ].join(" "),
  input: z.strictObject({}),
  data: z.object({
    /** The `## branch...upstream` line without its `## `, or null when git printed none. */
    branch: z.string().nullable(),
    /** One `XY path` line per changed file (X the index, Y the working tree, `??` untracked). */
    changes: z.array(z.string()),
  }),
  paths: () => [],
  writes: false,
});
