import { z } from "zod";
import { runGit } from "./git-run";
import { quotedPath, WorkspacePathInput } from "./paths";
import { defineTool } from "./types";

export const gitDiff = defineTool({
  name: "git.diff",
  risk: "safe",
  description: [
    "Shows changes as a unified diff: by default the working tree against the index (what is not staged yet);",
    "with `staged` the index against HEAD (what git.commit would commit). Give `path` to limit it to one file or directory.",
    "An empty answer means no changes. Needs no approval and no active intent.",
  ].join(" "),
  input: z.strictObject({
    staged: z.boolean().default(false).describe("Show what is staged for the next commit."),
    path: WorkspacePathInput.optional(),
  }),
  paths: (input) => (input.path === undefined ? [] : [input.path]),
  writes: false,
  execute: (input, runtime) => {
    const cached = input.staged ? " --cached" : "";
    const limit = input.path === undefined ? "" : ` -- ${quotedPath(input.path)}`;
    return runGit(
      runtime,
      `git -c core.quotePath=false diff --no-color --no-ext-diff --no-textconv${cached}${limit}`,
      "git diff",
      { empty: input.staged ? "(nothing staged)" : "(no unstaged changes)" },
    );
  },
});
