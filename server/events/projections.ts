import type { EventOf, EventType, StoredEvent } from "@/server/domain/events/schema";

/** The query tables that mirror the log. */
export type ProjectionTable = "run" | "intention" | "message" | "approval" | "cycle";

/**
 * What one event does to the query tables: insert a row, or set some columns of the row with that id.
 * A column whose value is `undefined` is left as it is (Prisma's meaning), `null` clears it.
 */
export type ProjectionWrite =
  | { kind: "create"; table: ProjectionTable; id: string; data: Record<string, unknown> }
  | { kind: "update"; table: ProjectionTable; id: string; data: Record<string, unknown> };

type Mapper<T extends EventType> = (
  body: EventOf<T>,
  where: { sessionId: string; at: Date },
) => ProjectionWrite;

const create = (table: ProjectionTable, data: Record<string, unknown> & { id: string }): ProjectionWrite => ({
  kind: "create",
  table,
  id: data.id,
  data,
});
const update = (table: ProjectionTable, id: string, data: Record<string, unknown>): ProjectionWrite => ({
  kind: "update",
  table,
  id,
  data,
});

/**
 * The rows each event type writes. An event type with no entry is kept in the log only (nothing
 * queries it as rows): adding an event type needs an entry here only when a table should show it.
 * Pure: the writer (projection-writer.ts) applies these one by one or in bulk, with the same result.
 */
const MAPPERS: { [T in EventType]?: Mapper<T> } = {
  "message-posted": (body, { sessionId, at }) =>
    create("message", {
      id: body.messageId,
      sessionId,
      runId: body.runId,
      role: body.role,
      text: body.text,
      createdAt: at,
    }),
  "run-started": (body, { sessionId, at }) =>
    create("run", {
      id: body.runId,
      sessionId,
      task: body.task,
      mode: body.mode,
      modelId: body.model.id,
      modelLabel: body.model.label,
      offline: body.model.offline,
      status: "RUNNING",
      startedAt: at,
    }),
  "intention-created": (body) =>
    create("intention", {
      id: body.intentionId,
      runId: body.runId,
      parentId: body.parentId,
      what: body.what,
      acceptance: body.acceptance,
      depth: body.depth,
      position: body.position,
      status: "PENDING",
    }),
  "intention-status-changed": (body) =>
    update("intention", body.intentionId, { status: body.status, reason: body.reason }),
  "approval-requested": (body, { sessionId, at }) =>
    create("approval", {
      id: body.approvalId,
      runId: body.runId,
      sessionId,
      intentionId: body.intentionId,
      kind: body.kind,
      status: "PENDING",
      payload: JSON.stringify({
        thought: body.thought,
        children: body.children,
        command: body.command,
        call: body.call,
      }),
      createdAt: at,
    }),
  "approval-decided": (body, { at }) =>
    update("approval", body.approvalId, {
      status: body.decision === "approved" ? "APPROVED" : "REJECTED",
      reason: body.reason,
      decidedById: body.decidedBy.userId,
      decidedAt: at,
    }),
  "approval-assigned": (body) =>
    update("approval", body.approvalId, { assignedToId: body.assignee?.userId ?? null }),
  "cycle-started": (body, { at }) =>
    create("cycle", {
      id: body.cycleId,
      intentionId: body.intentionId,
      runId: body.runId,
      index: body.index,
      thought: body.thought,
      actionType: body.action.type,
      actionContent: body.action.content,
      actionTarget: body.action.target,
      startedAt: at,
    }),
  "cycle-result": (body, { at }) =>
    update("cycle", body.cycleId, {
      exitCode: body.exitCode,
      output: body.error ?? body.output,
      endedAt: at,
    }),
  "cycle-judged": (body) =>
    update("cycle", body.cycleId, { judgment: body.judgment, judgedBy: body.judgedBy }),
  "cycle-reflected": (body) => update("cycle", body.cycleId, { reflection: body.reflection }),
  "run-ended": (body, { at }) =>
    update("run", body.runId, { status: body.status, reason: body.reason, endedAt: at }),
};

/** The table write one stored event causes, or null when no table mirrors its type. */
export function projectionOf(sessionId: string, event: StoredEvent): ProjectionWrite | null {
  const mapper = MAPPERS[event.body.type] as Mapper<EventType> | undefined;
  return mapper?.(event.body, { sessionId, at: new Date(event.at) }) ?? null;
}

/** `data` with `changes` laid over it, skipping `undefined` (which an update leaves untouched). */
function overlay(data: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...data };
  for (const [column, value] of Object.entries(changes)) if (value !== undefined) merged[column] = value;
  return merged;
}

/** Tables in the order their rows may be inserted: a row's foreign keys point only at earlier tables. */
export const INSERT_ORDER: readonly ProjectionTable[] = ["run", "intention", "message", "approval", "cycle"];

/** A batch's table writes folded into as few statements as give the same tables. */
export interface FoldedProjection {
  /** New rows by table, each in event order, with later updates of the same batch already applied. */
  creates: Map<ProjectionTable, Record<string, unknown>[]>;
  /** Column changes to rows that existed before the batch, one entry per row, later changes on top. */
  updates: { table: ProjectionTable; id: string; data: Record<string, unknown> }[];
}

/**
 * Folds a batch's writes, in event order, into the same final rows the one-by-one path leaves: an
 * update of a row created earlier in the batch is laid over the row to insert; several updates of
 * one existing row become one. Inserts never depend on updated columns, so inserting first and then
 * updating rows from before the batch gives the same tables. Throws where the one-by-one path would
 * have failed in a way the fold would hide: a row updated before it is created in the same batch.
 */
export function foldProjections(writes: readonly ProjectionWrite[]): FoldedProjection {
  const creates = new Map<ProjectionTable, Record<string, unknown>[]>();
  const created = new Map<string, Record<string, unknown>>();
  const updates = new Map<string, { table: ProjectionTable; id: string; data: Record<string, unknown> }>();
  for (const write of writes) {
    const key = `${write.table}\u0000${write.id}`;
    if (write.kind === "create") {
      if (updates.has(key))
        throw new Error(`${write.table} ${write.id} is updated before it is created in the same append`);
      const row = { ...write.data };
      created.set(key, row);
      const rows = creates.get(write.table) ?? [];
      rows.push(row);
      creates.set(write.table, rows);
      continue;
    }
    const pending = created.get(key);
    if (pending) {
      Object.assign(pending, overlay(pending, write.data));
      continue;
    }
    const earlier = updates.get(key);
    updates.set(key, {
      table: write.table,
      id: write.id,
      data: overlay(earlier?.data ?? {}, write.data),
    });
  }
  return { creates, updates: [...updates.values()] };
}
