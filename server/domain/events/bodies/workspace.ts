import { z } from "zod";

/**
 * How the session's workspace differs from where the session started, after a cycle that changed
 * files: the replay shows the files as they were at any point. The patch is capped (whole files).
 */
export const WorkspaceChangedBody = z.object({
  type: z.literal("workspace-changed"),
  /** null (with intentionId) when a person saved a file in the editor: no run wrote it. */
  runId: z.string().nullable(),
  intentionId: z.string().nullable(),
  cycleId: z.string(),
  base: z.string(),
  files: z
    .array(
      z.object({
        path: z.string(),
        added: z.number().int().nullable(),
        removed: z.number().int().nullable(),
      }),
    )
    .max(2_000),
  patch: z.string().max(200_000),
  truncated: z.boolean(),
});

/** The session's work was committed and stored in the project as the session's branch. */
export const WorkSavedBody = z.object({
  type: z.literal("work-saved"),
  branch: z.string(),
  commit: z.string(),
  files: z.array(z.string()).max(10_000),
  by: z.string(),
  /** A person saved despite secrets found in the staged changes. */
  secretsOverridden: z.boolean(),
});

/** The session's branch was merged into the project's default branch. */
export const WorkMergedBody = z.object({
  type: z.literal("work-merged"),
  branch: z.string(),
  into: z.string(),
  commit: z.string(),
  by: z.string(),
});

/** The session's branch and sandbox were thrown away. */
export const WorkDiscardedBody = z.object({
  type: z.literal("work-discarded"),
  branch: z.string(),
  by: z.string(),
});

/**
 * The session's saved branch was pushed to the project's upstream remote (issue #21.3), by the server
 * from the project's repository, never forced. `remote` is the URL (it never holds a credential).
 */
export const WorkPushedBody = z.object({
  type: z.literal("work-pushed"),
  branch: z.string(),
  commit: z.string(),
  remote: z.string().max(2_000),
  by: z.string(),
});

/** The remote refused the push (non-fast-forward, a protected branch, a failed sign-in): git's reason. */
export const WorkPushRefusedBody = z.object({
  type: z.literal("work-push-refused"),
  branch: z.string(),
  remote: z.string().max(2_000),
  reason: z.string().max(2_000),
  by: z.string(),
});

/** A pull request was opened on GitHub for the pushed branch. */
export const PullRequestOpenedBody = z.object({
  type: z.literal("pull-request-opened"),
  branch: z.string(),
  base: z.string(),
  number: z.number().int(),
  url: z.string().max(2_000),
  by: z.string(),
});

/** A person opened the session's terminal (a shell in its sandbox); its output is not logged. */
export const TerminalOpenedBody = z.object({
  type: z.literal("terminal-opened"),
  terminalId: z.string(),
  by: z.object({ userId: z.string(), name: z.string() }),
});

/** Someone typed in the terminal (at most one event per person per minute; what was typed is not kept). */
export const TerminalTypedBody = z.object({
  type: z.literal("terminal-typed"),
  terminalId: z.string(),
  by: z.object({ userId: z.string(), name: z.string() }),
});

/** The terminal ended: closed by a person (`by`), left idle, or its shell exited or was lost. */
export const TerminalClosedBody = z.object({
  type: z.literal("terminal-closed"),
  terminalId: z.string(),
  reason: z.enum(["closed", "idle", "exited", "shutdown"]),
  by: z.object({ userId: z.string(), name: z.string() }).nullable().default(null),
  exitCode: z.number().int().nullable().default(null),
});

/**
 * A person saved a file in the session's editor (through the tool dispatch, like the agent's writes):
 * who, which file, the hash they opened (null for a new file) and the hash written. The lines are in
 * the `trace-recorded` event that follows, with contributor `human`; `editId` ties the two.
 */
export const FileEditedBody = z.object({
  type: z.literal("file-edited"),
  editId: z.string(),
  path: z.string().max(4_096),
  by: z.object({ userId: z.string(), name: z.string() }),
  baseHash: z.string().nullable(),
  hash: z.string(),
  bytes: z.number().int().nonnegative(),
  /** The reason of a protected path or a secret the person confirmed, or null when nothing asked. */
  confirmed: z.string().max(2_000).nullable(),
});

/**
 * This family's event types (the workspace: changes, saved/merged/discarded work, terminal, edits).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const WORKSPACE_EVENTS = [
  WorkspaceChangedBody,
  WorkSavedBody,
  WorkMergedBody,
  WorkDiscardedBody,
  WorkPushedBody,
  WorkPushRefusedBody,
  PullRequestOpenedBody,
  TerminalOpenedBody,
  TerminalTypedBody,
  TerminalClosedBody,
  FileEditedBody,
] as const;
