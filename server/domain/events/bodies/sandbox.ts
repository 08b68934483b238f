import { z } from "zod";

/**
 * What a session's sandbox has: the toolchain versions found in it (one probe when it is acquired)
 * and the resource limits it runs with. Shown on the session page and in the replay.
 */
export const ToolchainVersion = z.object({
  /** node, npm, corepack, pnpm, yarn, python3, pip, git, gcc. */
  name: z.string().max(40),
  /** The version it printed; null when the tool is missing or did not answer (pnpm/yarn not yet fetched). */
  version: z.string().max(80).nullable(),
});
export type ToolchainVersion = z.infer<typeof ToolchainVersion>;

/** The limits a sandbox was given (the project's settings within the server's caps). */
export const SandboxResources = z.object({
  cpus: z.number().positive(),
  memoryMb: z.number().int().positive(),
  pids: z.number().int().positive(),
  /** /workspace size cap (enforced by measuring, see server/tools/workspace-size.ts); null: none. */
  workspaceMb: z.number().int().positive().nullable(),
});
export type SandboxResources = z.infer<typeof SandboxResources>;

export const SandboxDescribedBody = z.object({
  type: z.literal("sandbox-described"),
  runId: z.string(),
  toolchains: z.array(ToolchainVersion).max(20),
  /** Null when the provider does not say (a test double). */
  resources: SandboxResources.nullable(),
});

/**
 * This family's event types (the sandbox's toolchains and resource limits).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const SANDBOX_EVENTS = [SandboxDescribedBody] as const;
