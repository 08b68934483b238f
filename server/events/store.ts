import "server-only";
import { driverStatements, type SqlTx, withDriverTransaction } from "@/server/db-driver";
import { type EventInput, StoredEvent } from "@/server/domain/events/schema";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { insertRows } from "./bulk-insert";
import { eventBus } from "./bus";
import { StaleLogError } from "./log";
import { appendInOneStatement, prepareAppend } from "./one-statement-append";
import { projectBatch } from "./projection-writer";
import { VERBATIM_TYPES } from "./verbatim";
import { webhooksHearAny } from "./webhook-outbox";

/** How many sessions' last sequence numbers an EventStore keeps (a number each). */
const LAST_SEQS_KEPT = 10_000;

/**
 * The append-only log, on SQLite or PostgreSQL. Sequence numbers are assigned here and nowhere else:
 * appends for one session are serialised in-process, across processes by the session row's lock
 * taken first in each append's transaction, and the (sessionId, seq) unique index refuses any
 * duplicate that could still slip past.
 */
export class EventStore {
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: PrismaClient,
    private readonly secrets: () => readonly string[] = () => [],
    /**
     * On PostgreSQL with several instances: this instance's name. Each append then signals
     * `NOTIFY arbor_events` in its transaction (delivered at commit, in commit order), so followers
     * on other instances read the new events from the table (server/events/pg-notifications.ts).
     */
    private readonly notifyAs: string | null = null,
    /**
     * Told of every batch this instance committed, after the commit (the OpenTelemetry export, see
     * server/events/otel/). It must not block; whatever it throws is its own problem, never the append's.
     */
    private readonly observeAppended:
      | ((sessionId: string, events: readonly StoredEvent[]) => void)
      | null = null,
  ) {}

  append(
    sessionId: string,
    bodies: readonly EventInput[],
    options: { expectLastSeq?: number } = {},
  ): Promise<StoredEvent[]> {
    const previous = this.tails.get(sessionId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.write(sessionId, bodies, options));
    this.tails.set(sessionId, next);
    const forget = () => {
      if (this.tails.get(sessionId) === next) this.tails.delete(sessionId);
    };
    next.then(forget, forget);
    return next;
  }

  /**
   * Each session's last sequence number as this process last wrote it (at most LAST_SEQS_KEPT
   * sessions, the least recently appended forgotten first): the guess a one-statement append on
   * PostgreSQL is tried with. A wrong guess (another instance appended since) costs a transaction.
   */
  private readonly lastSeqs = new Map<string, number>();
  private statements: Promise<SqlTx> | null = null;
  /** How this store's appends went: as one statement, or in a transaction (the benchmark prints them). */
  readonly appendsBy = { oneStatement: 0, transaction: 0 };

  private async write(
    sessionId: string,
    bodies: readonly EventInput[],
    options: { expectLastSeq?: number },
  ): Promise<StoredEvent[]> {
    const secrets = this.secrets();
    const guess = options.expectLastSeq ?? this.lastSeqs.get(sessionId);
    let stored: StoredEvent[] | null = null;
    if (guess !== undefined && bodies.length > 0) {
      // A failed connect is not kept: the next append asks again.
      this.statements ??= driverStatements(this.db).catch((error: unknown) => {
        this.statements = null;
        throw error;
      });
      const sql = await this.statements;
      if (sql.provider === "postgres") {
        const prepared = prepareAppend(sessionId, bodies, guess, secrets, this.notifyAs);
        // Appends that tell webhooks (a run started, waits or ended) look the team's webhooks up
        // first: those go in a transaction.
        if (!webhooksHearAny(prepared.events) && (await appendInOneStatement(sql, prepared)))
          stored = prepared.events;
      }
    }
    if (stored) this.appendsBy.oneStatement += 1;
    else {
      stored = await this.writeInTransaction(sessionId, bodies, options, secrets);
      this.appendsBy.transaction += 1;
    }
    const last = stored.at(-1)?.seq;
    if (last !== undefined) this.rememberLastSeq(sessionId, last);
    eventBus.publish(sessionId, stored);
    try {
      this.observeAppended?.(sessionId, stored);
    } catch {
      // An observer's failure is reported by the observer; the events are committed either way.
    }
    return stored;
  }

  private rememberLastSeq(sessionId: string, seq: number) {
    this.lastSeqs.delete(sessionId);
    this.lastSeqs.set(sessionId, seq);
    if (this.lastSeqs.size > LAST_SEQS_KEPT) {
      const oldest = this.lastSeqs.keys().next().value;
      if (oldest !== undefined) this.lastSeqs.delete(oldest);
    }
  }

  private writeInTransaction(
    sessionId: string,
    bodies: readonly EventInput[],
    options: { expectLastSeq?: number },
    secrets: readonly string[],
  ): Promise<StoredEvent[]> {
    // On the driver adapter Prisma uses, not through its query compiler (see server/db-driver.ts).
    return withDriverTransaction(this.db, async (tx) => {
      // The sequence is taken by writing first: the increment locks the session's row (PostgreSQL)
      // or takes SQLite's write lock before anything is read, so appends from other processes wait
      // here and then see the committed count. Reading first would let two writers read the same
      // count (and SQLite refuses to upgrade a stale read to a write).
      const [session] = await tx.query<{ lastSeq: number | bigint }>(
        `UPDATE "Session" SET "lastSeq" = "lastSeq" + ? WHERE "id" = ? RETURNING "lastSeq"`,
        [bodies.length, sessionId],
      );
      if (!session) throw new Error(`no session ${sessionId} to append to`);
      const before = Number(session.lastSeq) - bodies.length;
      // Inside the transaction, so even a second server on the same database cannot slip in between.
      if (options.expectLastSeq !== undefined && options.expectLastSeq !== before)
        throw new StaleLogError(sessionId, options.expectLastSeq, before);
      const { events, eventRows, notice } = prepareAppend(sessionId, bodies, before, secrets, this.notifyAs);
      // The query tables in bulk (one insert per table, grouped updates) and the event rows in one
      // statement: a batch costs a handful of statements whatever its size.
      await projectBatch(tx, sessionId, events);
      await insertRows(tx, "Event", eventRows);
      if (notice !== null)
        // Executed, not queried: pg_notify returns `void`, a column type the adapter cannot read.
        await tx.execute(`SELECT pg_notify('arbor_events', ?)`, [notice]);
      return events;
    });
  }

  /**
   * The first `limit` events of a session as one JSON array of `StoredEvent`s, for the replay (10 000
   * events at once), in one raw select of the three columns it needs: Prisma's findMany builds a full
   * row object per event, which took most of the replay's server time. A payload whose schema fills
   * nothing in is copied as stored; the others are parsed, so an old event gets today's defaults
   * (see `verbatim.ts`). `readAll` is the same log, parsed.
   */
  async readAllJson(sessionId: string, limit: number): Promise<string> {
    const rows = await this.db.$queryRaw<
      { seq: number | bigint; type: string; createdAt: Date; payload: string }[]
    >`
      SELECT "seq", "type", "createdAt", "payload" FROM "Event" WHERE "sessionId" = ${sessionId} ORDER BY "seq" LIMIT ${limit}`;
    const events = rows.map((row) => {
      const seq = Number(row.seq);
      const at = new Date(row.createdAt).toISOString();
      const body = VERBATIM_TYPES.has(row.type)
        ? row.payload
        : JSON.stringify(StoredEvent.parse({ seq, at, body: JSON.parse(row.payload) }).body);
      return `{"seq":${seq},"at":"${at}","body":${body}}`;
    });
    return `[${events.join(",")}]`;
  }

  async readAll(sessionId: string, limit: number): Promise<StoredEvent[]> {
    return (JSON.parse(await this.readAllJson(sessionId, limit)) as unknown[]).map((event) =>
      StoredEvent.parse(event),
    );
  }

  async read(sessionId: string, afterSeq = 0, limit = 5_000): Promise<StoredEvent[]> {
    const rows = await this.db.event.findMany({
      where: { sessionId, seq: { gt: afterSeq } },
      orderBy: { seq: "asc" },
      take: limit,
    });
    return rows.map((row) =>
      StoredEvent.parse({ seq: row.seq, at: row.createdAt.toISOString(), body: JSON.parse(row.payload) }),
    );
  }
}
