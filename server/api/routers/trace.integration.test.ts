import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { traceRouter } from "@/server/api/routers/trace";
import { readAllEvents } from "@/server/capture/read";
import { foldEvents } from "@/server/domain/session/fold";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { parseJsonl } from "@/server/governance/ledger/export";
import { ledgerRecords } from "@/server/governance/ledger/record";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { verifiedRun } from "@/testing/events/capture-events";
import { validateJsonSchema } from "@/testing/ledger/agent-trace-schema";

// The router reaches the event store through the app context. The event union does not have
// `trace-recorded` yet, so the store here serves the real log plus trace events added after it.
const app = vi.hoisted(() => ({ store: null as unknown }));
vi.mock("@/server/app-context", () => ({ appContext: () => app }));

let db: PrismaClient;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterEach(async () => cleanup());

describe("trace router", () => {
  it("serves the session's agent_trace.jsonl and intent map to team members only", async () => {
    const { user, session } = await seedSession(db, "trace");
    const store = new EventStore(db);
    await store.append(session.id, verifiedRun);
    const intentionId =
      Object.keys(foldEvents(await readAllEvents(store, session.id)).intentions).find(
        (id) => id !== "root",
      ) ?? "c1";
    // Issue #15: the intention's kind of evidence reaches its trace records at export.
    await store.append(session.id, [
      {
        type: "intention-status-changed",
        runId: "run-1",
        intentionId,
        status: "VERIFIED",
        reason: "red before the work, green after",
        evidence: "red-to-green",
      },
    ]);
    const logged = await readAllEvents(store, session.id);
    const records = ledgerRecords({
      diff: "diff --git a/src/a.ts b/src/a.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/a.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n",
      revision: "0123456789abcdef0123456789abcdef01234567",
      sessionId: session.id,
      runId: "run-1",
      intentionId,
      cycleId: "cy1",
      modelId: "m",
      approver: null,
      checkResult: "SUCCESS",
      timestamp: "2026-11-22T06:00:00.000Z",
    });
    const all = [
      ...logged,
      {
        seq: logged.length + 1,
        at: "2026-11-22T06:00:00.000Z",
        body: { type: "trace-recorded", runId: "run-1", intentionId, cycleId: "cy1", records },
      },
    ];
    app.store = {
      read: async (_id: string, after = 0) => all.filter((event) => event.seq > after).slice(0, 2),
    };

    const caller = traceRouter.createCaller({ db, user });
    const jsonl = await caller.sessionTrace({ sessionId: session.id });
    const parsed = parseJsonl(jsonl);
    const withKind = records.map((record) => ({
      ...record,
      metadata: {
        "dev.arbor": {
          ...(record.metadata?.["dev.arbor"] as object),
          evidence: "red-to-green",
          accepted_by: null,
        },
      },
    }));
    expect(parsed).toEqual({ ok: true, records: withKind });
    for (const line of jsonl.trim().split("\n")) expect(validateJsonSchema(JSON.parse(line))).toEqual([]);

    const map = await caller.intentMap({ sessionId: session.id });
    // The intention's goal titles its section, markdown-escaped (it holds backticks).
    expect(map.split("\n")).toContain(`## ${intentionId} — run \\\`a\\\``);
    expect(map).toContain("| `src/a.ts` | 2 | 1 | 1 |");

    const stranger = await seedSession(db, "stranger");
    const outsider = traceRouter.createCaller({ db, user: stranger.user });
    await expect(outsider.sessionTrace({ sessionId: session.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(outsider.intentMap({ sessionId: session.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const anonymous = traceRouter.createCaller({ db, user: null });
    await expect(anonymous.sessionTrace({ sessionId: session.id })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });

  it("serves an empty ledger for a session without trace events", async () => {
    const { user, session } = await seedSession(db, "empty");
    app.store = new EventStore(db);
    const caller = traceRouter.createCaller({ db, user });
    expect(await caller.sessionTrace({ sessionId: session.id })).toBe("");
    expect(await caller.intentMap({ sessionId: session.id })).toContain("No file changes recorded.");
  });
});
