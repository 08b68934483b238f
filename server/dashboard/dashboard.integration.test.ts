import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dashboardRouter } from "@/server/api/routers/dashboard";
import type { EventInput } from "@/server/domain/events/schema";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { verifiedRun, waitingRun } from "@/testing/events/capture-events";
import { cycle, model } from "@/testing/events/events";

let db: PrismaClient;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterEach(async () => cleanup());

/** Projection rows are keyed by these ids across sessions: give each session's copy its own. */
const ID_KEYS = new Set(["runId", "intentionId", "parentId", "cycleId", "approvalId", "messageId"]);
function withIds(events: EventInput[], suffix: string): EventInput[] {
  return JSON.parse(JSON.stringify(events), (key, value) =>
    ID_KEYS.has(key) && typeof value === "string" ? `${value}-${suffix}` : value,
  ) as EventInput[];
}

const cost = (runId: string, costUsd: number): EventInput => ({
  type: "llm-called",
  runId,
  intentionId: null,
  stage: "act",
  modelId: "m",
  offline: false,
  tokensIn: 100,
  tokensOut: 50,
  latencyMs: 3,
  error: null,
  costUsd,
});

function failedRun(runId: string, startedBy: string): EventInput[] {
  return [
    { type: "run-started", runId, task: "run `x`", mode: "agent", model, startedBy },
    {
      type: "intention-created",
      runId,
      intentionId: "fx",
      parentId: null,
      what: "run `x`",
      acceptance: "x exits 0",
      depth: 0,
      position: 0,
    },
    ...cycle(runId, "fx", "fy1", 1),
    cost(runId, 0.5),
    { type: "intention-status-changed", runId, intentionId: "fx", status: "FAILED", reason: "5 cycles" },
    { type: "run-ended", runId, status: "FAILED", reason: "limit reached: 5 cycles per intention" },
  ];
}

async function sql<T>(query: string, ...params: unknown[]): Promise<T> {
  const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(query, ...params);
  return Object.values(rows[0] ?? {})[0] as T;
}

describe("team dashboard", () => {
  it("shows figures that match the database, for the caller's team only", async () => {
    const a = await seedSession(db, "a");
    const bob = await db.user.create({ data: { email: "bob@example.com", name: "Bob" } });
    await db.membership.create({ data: { userId: bob.id, teamId: a.team.id, role: "member" } });
    const second = await db.session.create({
      data: { projectId: a.project.id, createdById: a.user.id, title: "two", branch: "arbor/two" },
    });
    const other = await seedSession(db, "b");
    const store = new EventStore(db);
    await store.append(a.session.id, withIds([...verifiedRun, cost("run-1", 0.25)], "s1"));
    await store.append(second.id, withIds([...failedRun("run-f", bob.id), ...waitingRun], "s2"));
    await store.append(other.session.id, withIds([...verifiedRun, cost("run-1", 9)], "s3"));

    const dashboard = await dashboardRouter.createCaller({ db, user: a.user }).team({});
    const m = dashboard.metrics;
    const teamA = a.team.id;
    expect(dashboard.team.id).toBe(teamA);

    // Runs: the projection table agrees with the fold of the logs.
    const runsWith = (status: string) =>
      sql<bigint>(
        `SELECT count(*) FROM Run r JOIN Session s ON s.id = r.sessionId JOIN Project p ON p.id = s.projectId
         WHERE p.teamId = ? AND r.status = ?`,
        teamA,
        status,
      );
    expect(m.runs).toEqual({ total: 3, verified: 1, failed: 1, stopped: 0, running: 1 });
    expect(BigInt(m.runs.verified)).toBe(await runsWith("VERIFIED"));
    expect(BigInt(m.runs.failed)).toBe(await runsWith("FAILED"));
    expect(BigInt(m.runs.running)).toBe(await runsWith("RUNNING"));
    expect(m.successRate).toBe(0.5);

    // Intentions and cycles, from the Intention and Cycle projections.
    const verifiedIntentions = await sql<bigint>(
      `SELECT count(*) FROM Intention i JOIN Run r ON r.id = i.runId JOIN Session s ON s.id = r.sessionId
       JOIN Project p ON p.id = s.projectId WHERE p.teamId = ? AND i.status = 'VERIFIED'`,
      teamA,
    );
    expect(BigInt(m.intentions.verified)).toBe(verifiedIntentions);
    const cyclesPerVerified = await sql<number>(
      `SELECT avg(n) FROM (SELECT count(c.id) AS n FROM Intention i JOIN Cycle c ON c.intentionId = i.id
        JOIN Run r ON r.id = i.runId JOIN Session s ON s.id = r.sessionId JOIN Project p ON p.id = s.projectId
        WHERE p.teamId = ? AND i.status = 'VERIFIED' GROUP BY i.id)`,
      teamA,
    );
    expect(m.cyclesPerVerifiedIntention).toBeCloseTo(cyclesPerVerified);
    expect(m.cyclesPerVerifiedIntention).toBe(1.5);

    // Cost, straight from the stored llm-called events.
    const spent = await sql<number>(
      `SELECT sum(json_extract(e.payload, '$.costUsd')) FROM Event e JOIN Session s ON s.id = e.sessionId
       JOIN Project p ON p.id = s.projectId WHERE p.teamId = ? AND e.type = 'llm-called'`,
      teamA,
    );
    expect(m.costUsd).toBeCloseTo(spent);
    expect(m.costUsd).toBeCloseTo(0.75);
    expect(m.costPerVerifiedIntention).toBeCloseTo(0.75 / 3);
    expect(m.costByMember).toEqual([
      { userId: bob.id, name: "Bob", runs: 1, costUsd: 0.5, tokens: 150 },
      { userId: a.user.id, name: "User a", runs: 2, costUsd: 0.25, tokens: 157 },
    ]);

    // Approvals, from the Approval projection.
    const approvalsWith = (status: string) =>
      sql<bigint>(
        `SELECT count(*) FROM Approval ap JOIN Session s ON s.id = ap.sessionId JOIN Project p ON p.id = s.projectId
         WHERE p.teamId = ? AND ap.status = ?`,
        teamA,
        status,
      );
    expect(m.approvals).toMatchObject({ asked: 2, approved: 1, rejected: 0, pending: 1, auto: 0 });
    expect(BigInt(m.approvals.approved)).toBe(await approvalsWith("APPROVED"));
    expect(BigInt(m.approvals.pending)).toBe(await approvalsWith("PENDING"));
    expect(m.topFailureReasons).toEqual([{ reason: "limit reached: 5 cycles per intention", count: 1 }]);
  });

  it("answers NOT_FOUND for a team the caller is not in", async () => {
    const a = await seedSession(db, "a");
    const b = await seedSession(db, "b");
    const caller = dashboardRouter.createCaller({ db, user: b.user });
    await expect(caller.team({ teamId: a.team.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(dashboardRouter.createCaller({ db, user: null }).team({})).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});
