import { describe, expect, it } from "vitest";
import type { EventInput, StoredEvent } from "@/server/domain/events/schema";
import type { EvidenceKind } from "@/server/domain/vocabulary/session";
import { ledgerRecords } from "@/server/governance/ledger/record";
import { model, sequence } from "@/testing/events/events";
import { type SessionLog, teamMetrics } from "./team-metrics";

const now = new Date("2026-11-22T12:00:00Z");
const members = [
  { userId: "ann", name: "Ann" },
  { userId: "bob", name: "Bob" },
];

/** Events at chosen times: `[seconds after 2026-11-22T00:00Z, body]`. */
function at(entries: [number, EventInput][]): StoredEvent[] {
  const bodies = sequence(entries.map(([, body]) => body));
  return bodies.map((event, i) => ({
    ...event,
    at: new Date(Date.UTC(2026, 10, 22) + (entries[i]?.[0] ?? 0) * 1000).toISOString(),
  }));
}

const started = (runId: string, startedBy: string | null = null): EventInput => ({
  type: "run-started",
  runId,
  task: "t",
  mode: "agent",
  model,
  startedBy,
});
const ended = (runId: string, status: "VERIFIED" | "FAILED" | "STOPPED", reason = "r"): EventInput => ({
  type: "run-ended",
  runId,
  status,
  reason,
});
const status = (runId: string, intentionId: string, s: "VERIFIED" | "FAILED"): EventInput => ({
  type: "intention-status-changed",
  runId,
  intentionId,
  status: s,
  reason: null,
});
const cycle = (runId: string, intentionId: string, n: number, gate: "approve" | null = null): EventInput => ({
  type: "cycle-started",
  runId,
  intentionId,
  cycleId: `${intentionId}-c${n}`,
  index: n,
  thought: "",
  action: { type: "COMMAND", content: "true" },
  gate: gate ? { decision: gate, reason: "read-only" } : null,
});
const llm = (runId: string, costUsd: number | null, tokensIn = 10, tokensOut = 5): EventInput => ({
  type: "llm-called",
  runId,
  intentionId: null,
  stage: "act",
  modelId: "m",
  offline: false,
  tokensIn,
  tokensOut,
  latencyMs: 1,
  error: null,
  costUsd,
});
const asked = (runId: string, approvalId: string): EventInput => ({
  type: "approval-requested",
  runId,
  approvalId,
  intentionId: "root",
  kind: "command",
  thought: "",
  command: "npm test",
});
const decided = (
  runId: string,
  approvalId: string,
  userId: string,
  decision: "approved" | "rejected" = "approved",
): EventInput => ({
  type: "approval-decided",
  runId,
  approvalId,
  decision,
  decidedBy: { userId, name: userId },
  reason: null,
});
function traced(runId: string, check: string | null, lines: number): EventInput {
  const diff = `diff --git a/f.ts b/f.ts\n--- a/f.ts\n+++ b/f.ts\n@@ -0,0 +1,${lines} @@\n${"+x\n".repeat(lines)}`;
  return {
    type: "trace-recorded",
    runId,
    intentionId: "i",
    cycleId: "c",
    records: ledgerRecords({
      diff,
      revision: null,
      sessionId: "s",
      runId,
      intentionId: "i",
      modelId: "m",
      approver: null,
      checkResult: check,
      timestamp: now.toISOString(),
    }),
  };
}
const merge: EventInput = { type: "work-merged", branch: "b", into: "main", commit: "c", by: "ann" };

const session = (events: StoredEvent[], createdById = "ann"): SessionLog => ({
  sessionId: "s",
  createdById,
  events,
});
const metricsOf = (...sessions: SessionLog[]) => teamMetrics(sessions, members, { now, days: 7 });

describe("teamMetrics", () => {
  it("is empty, with no rates, for a team without runs", () => {
    const m = metricsOf();
    expect(m.runs.total).toBe(0);
    expect(m.successRate).toBeNull();
    expect(m.cyclesPerVerifiedIntention).toBeNull();
    expect(m.costPerVerifiedIntention).toBeNull();
    expect(m.approvals.autoShare).toBeNull();
    expect(m.runsByDay).toHaveLength(7);
    expect(m.costByMember.map((c) => c.runs)).toEqual([0, 0]);
  });

  it("counts runs by status and day, and the success rate over ended runs only", () => {
    const m = metricsOf(
      session(
        at([
          [0, started("r1")],
          [1, ended("r1", "VERIFIED")],
          [2, started("r2")],
          [3, ended("r2", "FAILED", "child 2 failed")],
          [4, started("r3")],
          [5, ended("r3", "STOPPED")],
          [6, started("r4")],
        ]),
      ),
    );
    expect(m.runs).toEqual({ total: 4, verified: 1, failed: 1, stopped: 1, running: 1 });
    expect(m.successRate).toBeCloseTo(1 / 3);
    expect(m.runsByDay.at(-1)).toEqual({ day: "2026-11-22", verified: 1, failed: 1, stopped: 1, running: 1 });
    expect(m.runsByDay[0]?.day).toBe("2026-11-16");
    expect(m.topFailureReasons).toEqual([{ reason: "child 2 failed", count: 1 }]);
  });

  it("keeps answers (Chat, or an Agent-mode question) out of runs and success, but charges their spend", () => {
    const chat: EventInput = { ...started("a1", "bob"), mode: "chat" } as EventInput;
    const question: EventInput = {
      type: "run-routed",
      runId: "a2",
      route: "answer",
      kind: "question",
      reason: "a plain question",
    };
    const m = metricsOf(
      session(
        at([
          [0, started("r1", "ann")],
          [1, ended("r1", "FAILED", "child 1 failed")],
          [2, chat],
          [3, llm("a1", 0.5)],
          [4, ended("a1", "VERIFIED")],
          [5, started("a2", "bob")],
          [6, question],
          [7, ended("a2", "VERIFIED")],
        ]),
      ),
    );
    expect(m.runs).toEqual({ total: 1, verified: 0, failed: 1, stopped: 0, running: 0 });
    expect(m.answers).toBe(2);
    expect(m.successRate).toBe(0);
    expect(m.costUsd).toBeCloseTo(0.5);
    expect(m.costByMember.find((c) => c.userId === "bob")).toMatchObject({ runs: 0, costUsd: 0.5 });
  });

  it("averages cycles over verified intentions that ran cycles, and spreads cost over them", () => {
    const m = metricsOf(
      session(
        at([
          [0, started("r1")],
          [1, cycle("r1", "a", 0)],
          [2, cycle("r1", "a", 1)],
          [3, cycle("r1", "a", 2)],
          [4, status("r1", "a", "VERIFIED")],
          [5, cycle("r1", "b", 0)],
          [6, status("r1", "b", "VERIFIED")],
          [7, cycle("r1", "c", 0)],
          [8, status("r1", "c", "FAILED")],
          // a parent verified by its integration check ran no cycle of its own
          [9, status("r1", "root", "VERIFIED")],
          [10, llm("r1", 0.3)],
          [11, llm("r1", null)],
        ]),
      ),
    );
    expect(m.intentions).toMatchObject({ verified: 3, failed: 1 });
    expect(m.cyclesPerVerifiedIntention).toBe(2);
    expect(m.costUsd).toBeCloseTo(0.3);
    expect(m.costPerVerifiedIntention).toBeCloseTo(0.1);
    expect(m.tokens).toEqual({ in: 20, out: 10 });
  });

  it("counts verified intentions by their kind of evidence, each apart (issue #15)", () => {
    const verified = (intentionId: string, evidence?: EvidenceKind): EventInput => ({
      ...status("r1", intentionId, "VERIFIED"),
      ...(evidence ? { evidence } : {}),
    });
    const m = metricsOf(
      session(
        at([
          [0, started("r1")],
          [1, verified("a", "red-to-green")],
          [2, verified("b", "red-to-green")],
          [3, verified("c", "ran-as-requested")],
          [4, verified("d", "green-after-no-baseline")],
          [5, verified("e", "accepted-by-person")],
          [6, verified("old")],
          [7, verified("f", "red-to-green")],
          [8, status("r1", "f", "FAILED")],
        ]),
      ),
    );
    expect(m.intentions.byEvidence).toEqual({
      "red-to-green": 2,
      "ran-as-requested": 1,
      "green-after-no-baseline": 1,
      "accepted-by-person": 1,
      unrecorded: 1,
    });
  });

  it("counts a node a person accepted after it failed for want of evidence as accepted-by-person (issue #15)", () => {
    const m = metricsOf(
      session(
        at([
          [0, started("r1")],
          [1, status("r1", "a", "FAILED")],
          [2, status("r1", "root", "FAILED")],
          [3, ended("r1", "FAILED")],
          [
            4,
            {
              type: "intention-status-changed",
              runId: "r1",
              intentionId: "a",
              status: "VERIFIED",
              reason: "accepted by Ann: checked by hand",
              evidence: "accepted-by-person",
              acceptedBy: { userId: "ann", name: "Ann" },
            },
          ],
        ]),
      ),
    );
    expect(m.intentions).toMatchObject({ verified: 1, failed: 1 });
    expect(m.intentions.byEvidence).toMatchObject({ "accepted-by-person": 1, unrecorded: 0 });
  });

  it("charges a run to who started it, else to the session's creator, including former members", () => {
    const m = metricsOf(
      session(
        at([
          [0, started("r1", "bob")],
          [1, llm("r1", 2)],
          [2, started("r2")],
          [3, llm("r2", 1)],
        ]),
        "ann",
      ),
      session(
        at([
          [0, started("r3", "carol")],
          [1, llm("r3", 5)],
        ]),
        "ann",
      ),
    );
    expect(m.costByMember).toEqual([
      { userId: "carol", name: "former member", runs: 1, costUsd: 5, tokens: 15 },
      { userId: "bob", name: "Bob", runs: 1, costUsd: 2, tokens: 15 },
      { userId: "ann", name: "Ann", runs: 1, costUsd: 1, tokens: 15 },
    ]);
  });

  it("counts approvals, waiting time of human answers, and the auto-approved share", () => {
    const m = metricsOf(
      session(
        at([
          [0, started("r1")],
          [10, asked("r1", "a1")],
          [40, decided("r1", "a1", "ann")],
          [50, asked("r1", "a2")],
          [60, decided("r1", "a2", "bob", "rejected")],
          [70, asked("r1", "a3")],
          [70, decided("r1", "a3", "auto")],
          [80, cycle("r1", "x", 0, "approve")],
          [90, asked("r1", "a4")],
        ]),
      ),
    );
    expect(m.approvals).toMatchObject({ asked: 4, approved: 2, rejected: 1, pending: 1, auto: 2 });
    expect(m.approvals.autoShare).toBeCloseTo(2 / 4);
    expect(m.approvals.medianWaitMs).toBe(20_000);
    expect(m.approvals.meanWaitMs).toBe(20_000);
  });

  it("counts AI lines merged, and those without a passing check, only once a merge follows them", () => {
    const m = metricsOf(
      session(
        at([
          [0, started("r1")],
          [1, traced("r1", "SUCCESS", 3)],
          [2, traced("r1", "PARTIAL", 4)],
          [3, traced("r1", null, 2)],
          [4, merge],
          [5, traced("r1", "FAILURE", 7)],
        ]),
      ),
    );
    expect(m.mergedAiLines).toEqual({ total: 9, withoutPassingCheck: 6 });
  });

  it("cuts a long failure reason with an ellipsis", () => {
    const m = metricsOf(
      session(
        at([
          [0, started("r1")],
          [1, ended("r1", "FAILED", "x".repeat(500))],
        ]),
      ),
    );
    expect(m.topFailureReasons[0]?.reason).toHaveLength(240);
    expect(m.topFailureReasons[0]?.reason.endsWith("x…")).toBe(true);
  });

  it("ranks failure reasons by count, at most five", () => {
    const events: [number, EventInput][] = [];
    const reasons = ["a", "b", "b", "c", "c", "c", "d", "e", "f"];
    reasons.forEach((reason, i) => {
      events.push([i * 2, started(`r${i}`)], [i * 2 + 1, ended(`r${i}`, "FAILED", reason)]);
    });
    const m = metricsOf(session(at(events)));
    expect(m.topFailureReasons.map((r) => [r.reason, r.count])).toEqual([
      ["c", 3],
      ["b", 2],
      ["a", 1],
      ["d", 1],
      ["e", 1],
    ]);
  });
});
