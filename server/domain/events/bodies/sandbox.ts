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
 * The workspace after a VERIFIED intention, committed (through a throw-away index, on top of HEAD) to
 * a hidden ref of the session in the project's repository: what a lost sandbox restarts from.
 */
export const WorkspaceSnapshottedBody = z.object({
  type: z.literal("workspace-snapshotted"),
  intentionId: z.string(),
  /** The intention's title, so "what was lost" reads without the rest of the log. */
  title: z.string().max(300),
  /** refs/arbor/sessions/<session>/snapshots/<n> */
  ref: z.string().max(300),
  commit: z.string().regex(/^[0-9a-f]{40,64}$/),
});

const SnapshotRef = z.object({ ref: z.string().max(300), title: z.string().max(300) });

/** The session's Docker host stopped answering: its sandbox and the work since the last snapshot are gone. */
export const SandboxLostBody = z.object({
  type: z.literal("sandbox-lost"),
  host: z.string().max(300),
  message: z.string().max(1000),
  /** What a restart starts from; null: no intention was verified yet, it starts from the branch. */
  lastSnapshot: SnapshotRef.nullable(),
  /** Titles of the intentions that were not verified when it was lost: their work since is gone. */
  unsaved: z.array(z.string().max(300)).max(50),
});

/** A person restarted a lost sandbox: the session is placed again (on a healthy host), from the snapshot. */
export const SandboxRestartedBody = z.object({
  type: z.literal("sandbox-restarted"),
  fromHost: z.string().max(300),
  toHost: z.string().max(300),
  by: z.object({ name: z.string().max(200) }),
  /** The snapshot the workspace was restored from; null: from the session's branch. */
  snapshot: z.string().max(300).nullable(),
});

/**
 * The lost sandbox's host answered again and the sandbox was there as it was (started again if the
 * engine had stopped it): the session goes on with it, nothing lost. Only while it was still lost and
 * still placed on that host (a restart elsewhere moves it for good).
 */
export const SandboxReconnectedBody = z.object({
  type: z.literal("sandbox-reconnected"),
  host: z.string().max(300),
});

/**
 * This family's event types (the sandbox's toolchains and resource limits, its snapshots and hosts).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const SANDBOX_EVENTS = [
  SandboxDescribedBody,
  WorkspaceSnapshottedBody,
  SandboxLostBody,
  SandboxRestartedBody,
  SandboxReconnectedBody,
] as const;
