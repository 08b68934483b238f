import { z } from "zod";
import { defineToolSpec } from "./spec";

export const setupRunSpec = defineToolSpec({
  name: "setup.run",
  // The project's setup command: only ever run with a person's approval bound to its text.
  risk: "dangerous",
  category: "shell",
  // Never offered to a model: the server runs it once per new workspace.
  stages: [],
  readOnly: false,
  description: [
    "Runs the project's setup command (installing dependencies) in /workspace, once, when a session's workspace is made.",
    "Server only: it is never offered to a model. It needs an active intent and always the approval a person gave this exact command in the project's settings;",
    "it runs with the setup phase's network and the project's setup secrets.",
  ].join(" "),
  input: z.strictObject({
    command: z.string().min(1).max(2_000).describe("The setup command, exactly as approved."),
  }),
  paths: () => [],
  writes: false,
});
