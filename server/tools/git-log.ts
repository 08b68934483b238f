import { z } from "zod";
import { runGit } from "./git-run";
import { quotedPath, WorkspacePathInput } from "./paths";
import { defineTool } from "./types";

export const gitLog = defineTool({
  name: "git.log",
  risk: "safe",
  description: [
    "Lists the latest commits of the current branch, newest first, one per line: short hash, date, author, subject.",
    "`limit` sets how many (default 10, at most 100); `path` limits it to commits that touched that file or directory.",
    "Needs no approval and no active intent.",
  ].join(" "),
  input: z.strictObject({
    limit: z.number().int().min(1).max(100).default(10),
    path: WorkspacePathInput.optional(),
  }),
  paths: (input) => (input.path === undefined ? [] : [input.path]),
  writes: false,
  execute: (input, runtime) => {
    const limit = input.path === undefined ? "" : ` -- ${quotedPath(input.path)}`;
    return runGit(
      runtime,
      `if git rev-parse --verify -q HEAD >/dev/null; then git log --no-color --format='%h %ad %an: %s' --date=short -n ${input.limit}${limit}; else echo '(no commits yet)'; fi`,
      "git log",
      { empty: "(no commits yet)" },
    );
  },
});
