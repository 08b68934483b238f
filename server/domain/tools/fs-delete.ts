import { z } from "zod";
import { CHANGING_STAGES, defineToolSpec } from "./spec";
import { WorkspacePathInput } from "./workspace-path-input";

export const fsDeleteSpec = defineToolSpec({
  name: "fs.delete",
  risk: "dangerous",
  category: "write",
  stages: CHANGING_STAGES,
  readOnly: false,
  description: [
    "Deletes one file (or symbolic link) from the workspace. It does not delete directories.",
    "Irreversible unless the file is committed in git. Dangerous: a person must confirm it every time",
    "unless the project pre-approves file changes (a pre-approval for one run does not cover deletes); protected paths always ask.",
    "Needs an active intent and a path inside its owned scope. Fails with not_found when the file does not exist.",
  ].join(" "),
  input: z.strictObject({ path: WorkspacePathInput }),
  paths: (input) => [input.path],
  writes: true,
  // `rm` removes a symbolic link, never its target: the link is what is judged and deleted.
  actsOnEntry: true,
});
