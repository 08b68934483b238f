import { randomUUID } from "node:crypto";
import { EventBody, type StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import type { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { SessionExport } from "./export";

/**
 * Importing a session: the pure part rewrites the exported log for a new session, the thin part
 * writes it through the event store so the projections are built exactly as for a live run.
 */

export const IMPORTED_UNFINISHED_REASON = "imported: the original run had not finished";

/** `call`: one tool call of a Chat answer (answer-tool-called). */
export type IdKind = "run" | "intention" | "cycle" | "approval" | "message" | "call" | "review";

export interface ImportPlan {
  bodies: EventBody[];
  /** Every id that was replaced, for tests and for anyone tracing an import back to its source. */
  renamed: { kind: IdKind; from: string; to: string }[];
  /** Original ids of the runs that were still RUNNING in the file and are ended by the import. */
  stoppedRunIds: string[];
}

/**
 * Rewrites an exported log with fresh ids and ends every unfinished run. The projection tables key
 * rows by the ids inside events across all sessions, so re-appending the original ids would collide
 * with the source session (or with a previous import of the same file). One map per kind keeps every
 * reference consistent; separate maps mean a run and an intention that happen to share an id in a
 * hand-made file still get distinct new ids.
 */
export function planImport(events: readonly StoredEvent[], newId: () => string = randomUUID): ImportPlan {
  const maps: Record<IdKind, Map<string, string>> = {
    run: new Map(),
    intention: new Map(),
    cycle: new Map(),
    approval: new Map(),
    message: new Map(),
    call: new Map(),
    review: new Map(),
  };
  const renamed: ImportPlan["renamed"] = [];
  const id = (kind: IdKind, from: string): string => {
    const known = maps[kind].get(from);
    if (known !== undefined) return known;
    const to = newId();
    maps[kind].set(from, to);
    renamed.push({ kind, from, to });
    return to;
  };

  const bodies = events.map((event) => remapBody(event.body, id));
  // Nothing may start executing on import: an unfinished run is recorded as stopped, and its pending
  // approvals stay visible (answering one later does not resume a run that has ended).
  const view = foldEvents(events);
  const stoppedRunIds = view.runOrder.filter((runId) => view.runs[runId]?.status === "RUNNING");
  for (const runId of stoppedRunIds) {
    bodies.push({
      type: "run-ended",
      runId: id("run", runId),
      status: "STOPPED",
      reason: IMPORTED_UNFINISHED_REASON,
    });
  }
  return { bodies, renamed, stoppedRunIds };
}

/**
 * Every id field an event may carry, and what it names. The schema's convention (one name per kind
 * of id, see `server/events/schema.ts`) lets the rewrite work field by field, so an event type added
 * later is remapped without touching this file; a test fails if an event grows an `…Id` field that
 * is not listed here.
 */
export const ID_FIELDS = {
  runId: "run",
  intentionId: "intention",
  parentId: "intention",
  cycleId: "cycle",
  /** A person's save: the same id as the cycleId of its trace-recorded event, renamed alike. */
  editId: "cycle",
  approvalId: "approval",
  messageId: "message",
  callId: "call",
  /** An advisory QA review (qa-reported). */
  reviewId: "review",
} as const satisfies Record<string, IdKind>;

type Rename = (kind: IdKind, from: string) => string;

function remapBody(body: EventBody, id: Rename): EventBody {
  const copy: Record<string, unknown> = { ...body };
  for (const [field, kind] of Object.entries(ID_FIELDS)) {
    const value = copy[field];
    if (typeof value === "string") copy[field] = id(kind, value);
  }
  // Parsed again rather than cast: the result is checked to still be a valid event.
  return EventBody.parse(copy);
}

export interface ImportTarget {
  projectId: string;
  userId: string;
}

/**
 * Creates a new session in the project and appends the rewritten log in one store transaction.
 * The document must already have passed `parseSessionExport`. If the append fails the empty session
 * is removed again, so a failed import leaves nothing behind.
 */
export async function importSession(
  deps: { db: PrismaClient; store: Pick<EventStore, "append"> },
  target: ImportTarget,
  doc: SessionExport,
): Promise<{ sessionId: string }> {
  const plan = planImport(doc.events);
  const sessionId = randomUUID();
  await deps.db.session.create({
    data: {
      id: sessionId,
      projectId: target.projectId,
      createdById: target.userId,
      title: `Imported: ${doc.session.title}`.slice(0, 120),
      // The session's own branch, like any other: the export carries the log, not the repository.
      branch: `arbor/session-${sessionId}`,
    },
  });
  try {
    if (plan.bodies.length > 0) await deps.store.append(sessionId, plan.bodies);
  } catch (error) {
    await deps.db.session.delete({ where: { id: sessionId } });
    throw error;
  }
  return { sessionId };
}
