import "server-only";
import type { SqlTx } from "@/server/db-driver";
import { type EventInput, runIdOf, StoredEvent } from "@/server/domain/events/schema";
import { insertStatements, type Statement } from "./bulk-insert";
import { projectionStatements } from "./projection-writer";
import { redactSecrets } from "./redact";

/** Every part of the combined statement writes only when the sequence update matched. */
const GATE = `EXISTS (SELECT 1 FROM "appended")`;

/** What one append writes, with its sequence numbers already given (after `before`). */
export interface PreparedAppend {
  sessionId: string;
  /** The session's last sequence number the batch follows: a guess the statement checks. */
  before: number;
  events: StoredEvent[];
  eventRows: Record<string, unknown>[];
  /** The `arbor_events` notification's payload, or null when this instance announces nothing. */
  notice: string | null;
}

/** The payload of an `arbor_events` notification: who appended which sequence numbers of which session. */
function eventsNotice(instance: string, sessionId: string, firstSeq: number, lastSeq: number): string {
  return JSON.stringify({ instance, sessionId, firstSeq, lastSeq });
}

/** The batch as stored events and their rows, numbered after `before`, known secrets redacted. */
export function prepareAppend(
  sessionId: string,
  bodies: readonly EventInput[],
  before: number,
  secrets: readonly string[],
  notifyAs: string | null,
): PreparedAppend {
  const at = new Date().toISOString();
  const events = bodies.map((raw, i) => {
    // Through JSON text even with nothing to redact: the event this process publishes is then exactly
    // what a reader of the log gets (no shared objects, no Date or undefined the payload cannot hold).
    const redacted = JSON.parse(redactSecrets(JSON.stringify(raw), secrets)) as unknown;
    return StoredEvent.parse({ seq: before + i + 1, at, body: redacted });
  });
  const createdAt = new Date(at);
  const eventRows = events.map((event) => ({
    sessionId,
    seq: event.seq,
    type: event.body.type,
    runId: runIdOf(event.body),
    payload: JSON.stringify(event.body),
    createdAt,
  }));
  const notice =
    notifyAs === null || events.length === 0
      ? null
      : eventsNotice(notifyAs, sessionId, before + 1, before + events.length);
  return { sessionId, before, events, eventRows, notice };
}

/** A statement the database refused (it has a SQLSTATE): it ran in its own transaction, so nothing of it stays. */
function refusedByDatabase(error: unknown): boolean {
  const cause = (error as { cause?: { originalCode?: unknown } } | null)?.cause;
  return typeof cause?.originalCode === "string";
}

/** The combined statement: each part a data-modifying CTE, the checks and the notification in its select. */
export async function oneStatementOf(sql: SqlTx, append: PreparedAppend): Promise<Statement> {
  const { sessionId, before, events, eventRows, notice } = append;
  const { inserts, updates } = await projectionStatements(sql, sessionId, events, GATE);
  const writes = [...inserts, ...(await insertStatements(sql, "Event", eventRows, GATE))];
  const parts = [
    `"appended" AS (UPDATE "Session" SET "lastSeq" = "lastSeq" + ? WHERE "id" = ? AND "lastSeq" = ? RETURNING 1)`,
  ];
  const args: unknown[] = [events.length, sessionId, before];
  writes.forEach((write, i) => {
    parts.push(`"w${i}" AS (${write.sql})`);
    args.push(...write.args);
  });
  updates.forEach((update, i) => {
    parts.push(`"u${i}" AS (${update.sql})`);
    args.push(...update.args);
  });
  // An update that changed fewer rows than it names fails the whole statement (integer division by
  // zero), as the transaction's MissingProjectionRowError rolls it back.
  const columns = [
    `(SELECT count(*) FROM "appended")::int AS "appended"`,
    ...updates.map(
      (update, i) => `1 / ((SELECT count(*) FROM "u${i}") = ${update.ids.length})::int AS "u${i}"`,
    ),
  ];
  if (notice !== null) {
    // pg_notify returns `void`, a type the adapter cannot read: its calls are counted instead.
    columns.push(
      `(SELECT count(*) FROM (SELECT pg_notify('arbor_events', ?) FROM "appended") AS "notices")::int AS "notified"`,
    );
    args.push(notice);
  }
  return { sql: `WITH ${parts.join(",\n")}\nSELECT ${columns.join(", ")}`, args };
}

/**
 * On PostgreSQL, the whole append — the sequence update, the projection rows, the event rows and the
 * notification — as one statement of data-modifying CTEs: one round trip in its own implicit
 * transaction, instead of BEGIN, a statement per table and COMMIT (each a round trip that the
 * transaction's locks are held across). It needs the sequence numbers before it runs, so it is tried
 * with a guess (the session's last number as this process last wrote it, or the caller's
 * `expectLastSeq`): the update matches only when the session is still there, and every other part
 * writes only when it did. Resolves to false, having written nothing, when the guess was wrong or the
 * database refused the statement (a projection row missing, a constraint); the caller then appends in
 * a transaction, which finds out why. A lost connection is thrown: whether the statement committed is
 * then unknown, and trying again could append twice.
 */
export async function appendInOneStatement(sql: SqlTx, append: PreparedAppend): Promise<boolean> {
  const statement = await oneStatementOf(sql, append);
  try {
    const [row] = await sql.query<{ appended: number }>(statement.sql, statement.args);
    return Number(row?.appended ?? 0) === 1;
  } catch (error) {
    if (refusedByDatabase(error)) return false;
    throw error;
  }
}
