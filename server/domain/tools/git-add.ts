import { z } from "zod";
import { CHANGING_STAGES, defineToolSpec } from "./spec";
import { WorkspacePathInput } from "./workspace-path-input";

export const gitAddSpec = defineToolSpec({
  name: "git.add",
  risk: "moderate",
  category: "git-write",
  stages: CHANGING_STAGES,
  readOnly: false,
  description: [
    "Stages files for the next commit (`git add`), including deletions of tracked files. Give each file or directory in `paths`;",
    "paths are taken literally (no globs). Check the result with git.status or git.diff with staged.",
    "Needs an active intent and paths inside its owned scope; moderate risk: a person approves it unless git-write tools are pre-approved.",
  ].join(" "),
  input: z.strictObject({
    paths: z.array(WorkspacePathInput).min(1).max(200).describe("Files or directories to stage."),
  }),
  paths: (input) => input.paths,
  writes: true,
});
