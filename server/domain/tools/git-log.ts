import { z } from "zod";
import { defineToolSpec, LOOKING_STAGES } from "./spec";
import { WorkspacePathInput } from "./workspace-path-input";

export const gitLogSpec = defineToolSpec({
  name: "git.log",
  risk: "safe",
  category: "git-read",
  stages: LOOKING_STAGES,
  readOnly: true,
  description: [
    "Lists the latest commits of the current branch, newest first, one per line: short hash, date, author, subject.",
    "`limit` sets how many (default 10, at most 100); `path` limits it to commits that touched that file or directory.",
    "Needs no approval and no active intent.",
  ].join(" "),
  input: z.strictObject({
    limit: z.number().int().min(1).max(100).default(10),
    path: WorkspacePathInput.optional(),
  }),
  data: z.object({
    /** Newest first, each `hash date author: subject`; empty before the first commit. */
    commits: z.array(z.string()),
  }),
  paths: (input) => (input.path === undefined ? [] : [input.path]),
  writes: false,
});
