import { z } from "zod";

/**
 * A project's sandbox resources as a person sets them: CPU, memory, pids and the /workspace size.
 * Stored on the project as JSON; a field left out takes the server's default. The server's caps
 * (ARBOR_SANDBOX_MAX_*) are checked by `server/sandbox/resources.ts`.
 */
export const ProjectResources = z.strictObject({
  cpus: z.number().positive().max(64).multipleOf(0.25, "CPUs go in steps of 0.25.").optional(),
  memoryMb: z.number().int().min(64, "At least 64 MB of memory.").optional(),
  pids: z.number().int().min(32, "At least 32 processes.").optional(),
  workspaceMb: z.number().int().min(16, "At least 16 MB of workspace.").optional(),
});
export type ProjectResources = z.infer<typeof ProjectResources>;
