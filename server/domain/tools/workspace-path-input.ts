import { z } from "zod";

/** A path as the model writes it: relative to /workspace, or absolute inside it. */
export const WorkspacePathInput = z
  .string()
  .min(1, "a path is required")
  .max(4_096)
  .describe("A path relative to /workspace (e.g. `src/app.ts`), or an absolute path inside /workspace.");
