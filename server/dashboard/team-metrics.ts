import type { EventBody, StoredEvent } from "@/server/domain/events/schema";
import { EVIDENCE_KINDS, type EvidenceKind, type RunStatus } from "@/server/domain/vocabulary/session";
import { aiLinesOf, passedCheck } from "./trace-lines";

/**
 * A team's dashboard, computed from the event logs of its sessions and nothing else, so every figure
 * can be traced back to events (and a test can recompute it straight from the database). Pure.
 */

export interface SessionLog {
  sessionId: string;
  /** Who opened the session: the fallback owner of runs whose `run-started` names nobody. */
  createdById: string;
  events: readonly StoredEvent[];
}

export interface TeamMember {
  userId: string;
  name: string;
}

export interface DayRuns {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  verified: number;
  failed: number;
  stopped: number;
  running: number;
}

export interface MemberCost {
  userId: string;
  name: string;
  runs: number;
  costUsd: number;
  tokens: number;
}

export interface TeamMetrics {
  /** The agent's runs (worked as an intention tree); Chat answers are counted apart, in `answers`. */
  runs: { total: number; verified: number; failed: number; stopped: number; running: number };
  /** Messages answered on the read-only answer path (Chat mode, Agent-mode questions). */
  answers: number;
  /** Verified runs over ended runs; null before any run ended. */
  successRate: number | null;
  runsByDay: DayRuns[];
  intentions: {
    verified: number;
    failed: number;
    /**
     * The verified intentions by the kind of evidence they rest on (issue #15), each counted apart;
     * "unrecorded" are verifications logged before the kinds existed.
     */
    byEvidence: Record<EvidenceKind | "unrecorded", number>;
  };
  /** Mean number of cycles run by the intentions that ended VERIFIED after at least one cycle. */
  cyclesPerVerifiedIntention: number | null;
  costUsd: number;
  tokens: { in: number; out: number };
  /** All model spend divided by the intentions that were verified. */
  costPerVerifiedIntention: number | null;
  costByMember: MemberCost[];
  approvals: {
    asked: number;
    approved: number;
    rejected: number;
    pending: number;
    /** Decided by the auto checkpoint or let through by the command gate without a question. */
    auto: number;
    /** auto over (auto + answered by a person); null when nothing was decided. */
    autoShare: number | null;
    medianWaitMs: number | null;
    meanWaitMs: number | null;
  };
  topFailureReasons: { reason: string; count: number }[];
  /** Lines the agent wrote in sessions whose work was merged: in all, and without a passing check. */
  mergedAiLines: { total: number; withoutPassingCheck: number };
}

interface RunFacts {
  status: RunStatus;
  /** An answer, not work: it ends VERIFIED when answered, which says nothing of the agent's success. */
  answer: boolean;
  day: string;
  owner: string;
  costUsd: number;
  tokens: number;
}

const TOP_REASONS = 5;
const REASON_CHARS = 240;

export function teamMetrics(
  sessions: readonly SessionLog[],
  members: readonly TeamMember[],
  options: { now: Date; days: number },
): TeamMetrics {
  const runs = new Map<string, RunFacts>();
  const intentionStatus = new Map<string, string>();
  const evidenceOf = new Map<string, EvidenceKind | "unrecorded">();
  const cyclesOf = new Map<string, number>();
  const askedAt = new Map<string, number>();
  const waits: number[] = [];
  const failureReasons = new Map<string, number>();
  const approvals = { asked: 0, approved: 0, rejected: 0, auto: 0, human: 0 };
  const tokens = { in: 0, out: 0 };
  const merged = { total: 0, withoutPassingCheck: 0 };
  let costUsd = 0;

  for (const session of sessions) {
    const pendingLines = { total: 0, withoutPassingCheck: 0 };
    for (const { body, at } of session.events) {
      const time = Date.parse(at);
      visit(body, time, session);
      if (body.type === "trace-recorded") {
        for (const record of body.records) {
          const lines = aiLinesOf(record);
          pendingLines.total += lines;
          if (!passedCheck(record)) pendingLines.withoutPassingCheck += lines;
        }
      }
      // Lines count as merged once a merge follows them; later lines wait for the next merge.
      if (body.type === "work-merged") {
        merged.total += pendingLines.total;
        merged.withoutPassingCheck += pendingLines.withoutPassingCheck;
        pendingLines.total = 0;
        pendingLines.withoutPassingCheck = 0;
      }
    }
  }

  function visit(body: EventBody, time: number, session: SessionLog) {
    switch (body.type) {
      case "run-started":
        runs.set(body.runId, {
          status: "RUNNING",
          answer: body.mode === "chat",
          day: new Date(time).toISOString().slice(0, 10),
          owner: body.startedBy ?? session.createdById,
          costUsd: 0,
          tokens: 0,
        });
        return;
      case "run-routed": {
        const run = runs.get(body.runId);
        if (run && body.route === "answer") run.answer = true;
        return;
      }
      case "run-ended": {
        const run = runs.get(body.runId);
        if (run) run.status = body.status;
        if (body.status === "FAILED") countReason(body.reason);
        return;
      }
      case "intention-status-changed":
        intentionStatus.set(body.intentionId, body.status);
        if (body.status === "VERIFIED") evidenceOf.set(body.intentionId, body.evidence ?? "unrecorded");
        else evidenceOf.delete(body.intentionId);
        return;
      case "cycle-started":
        cyclesOf.set(body.intentionId, (cyclesOf.get(body.intentionId) ?? 0) + 1);
        // A command the gate let through without asking anyone.
        if (body.approvalId === null && body.gate?.decision === "approve") approvals.auto += 1;
        return;
      case "llm-called": {
        tokens.in += body.tokensIn;
        tokens.out += body.tokensOut;
        const cost = body.costUsd ?? 0;
        costUsd += cost;
        const run = runs.get(body.runId);
        if (run) {
          run.costUsd += cost;
          run.tokens += body.tokensIn + body.tokensOut;
        }
        return;
      }
      case "approval-requested":
        approvals.asked += 1;
        askedAt.set(body.approvalId, time);
        return;
      case "approval-decided": {
        if (body.decision === "approved") approvals.approved += 1;
        else approvals.rejected += 1;
        if (body.decidedBy.userId === "auto") approvals.auto += 1;
        else {
          approvals.human += 1;
          const asked = askedAt.get(body.approvalId);
          if (asked !== undefined) waits.push(Math.max(0, time - asked));
        }
        askedAt.delete(body.approvalId);
        return;
      }
      default:
        return;
    }
  }

  function countReason(reason: string) {
    const trimmed = reason.trim();
    const key =
      trimmed.length > REASON_CHARS
        ? `${trimmed.slice(0, REASON_CHARS - 1)}…`
        : trimmed || "(no reason given)";
    failureReasons.set(key, (failureReasons.get(key) ?? 0) + 1);
  }

  // Spend counts every request; success and run counts only the agent's work.
  const everything = [...runs.values()];
  const all = everything.filter((run) => !run.answer);
  const count = (status: RunFacts["status"]) => all.filter((run) => run.status === status).length;
  const verifiedRuns = count("VERIFIED");
  const ended = all.length - count("RUNNING");
  const verifiedIntentions = [...intentionStatus.values()].filter((s) => s === "VERIFIED").length;
  const cycleCounts = [...intentionStatus.entries()]
    .filter(([id, status]) => status === "VERIFIED" && (cyclesOf.get(id) ?? 0) > 0)
    .map(([id]) => cyclesOf.get(id) ?? 0);
  const decided = approvals.auto + approvals.human;

  return {
    runs: {
      total: all.length,
      verified: verifiedRuns,
      failed: count("FAILED"),
      stopped: count("STOPPED"),
      running: count("RUNNING"),
    },
    answers: everything.length - all.length,
    successRate: ended === 0 ? null : verifiedRuns / ended,
    runsByDay: runsByDay(all, options),
    intentions: {
      verified: verifiedIntentions,
      failed: [...intentionStatus.values()].filter((s) => s === "FAILED").length,
      byEvidence: countEvidence(evidenceOf),
    },
    cyclesPerVerifiedIntention: mean(cycleCounts),
    costUsd,
    tokens,
    costPerVerifiedIntention: verifiedIntentions === 0 ? null : costUsd / verifiedIntentions,
    costByMember: costByMember(everything, members),
    approvals: {
      asked: approvals.asked,
      approved: approvals.approved,
      rejected: approvals.rejected,
      pending: askedAt.size,
      auto: approvals.auto,
      autoShare: decided === 0 ? null : approvals.auto / decided,
      medianWaitMs: median(waits),
      meanWaitMs: mean(waits),
    },
    topFailureReasons: [...failureReasons.entries()]
      .map(([reason, n]) => ({ reason, count: n }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
      .slice(0, TOP_REASONS),
    mergedAiLines: merged,
  };
}

/** One entry per day of the window (oldest first), days without runs included, so charts keep their scale. */
function runsByDay(runs: readonly RunFacts[], { now, days }: { now: Date; days: number }): DayRuns[] {
  const out: DayRuns[] = [];
  const byDay = new Map<string, DayRuns>();
  for (let back = days - 1; back >= 0; back--) {
    const day = new Date(now.getTime() - back * 86_400_000).toISOString().slice(0, 10);
    const entry = { day, verified: 0, failed: 0, stopped: 0, running: 0 };
    out.push(entry);
    byDay.set(day, entry);
  }
  for (const run of runs) {
    const entry = byDay.get(run.day);
    if (!entry) continue;
    if (run.status === "VERIFIED") entry.verified += 1;
    else if (run.status === "FAILED") entry.failed += 1;
    else if (run.status === "STOPPED") entry.stopped += 1;
    else entry.running += 1;
  }
  return out;
}

function costByMember(runs: readonly RunFacts[], members: readonly TeamMember[]): MemberCost[] {
  const byUser = new Map<string, MemberCost>(
    members.map((m) => [m.userId, { userId: m.userId, name: m.name, runs: 0, costUsd: 0, tokens: 0 }]),
  );
  for (const run of runs) {
    // Someone who has left the team still owns their runs' spend.
    const entry = byUser.get(run.owner) ?? {
      userId: run.owner,
      name: "former member",
      runs: 0,
      costUsd: 0,
      tokens: 0,
    };
    if (!run.answer) entry.runs += 1;
    entry.costUsd += run.costUsd;
    entry.tokens += run.tokens;
    byUser.set(run.owner, entry);
  }
  return [...byUser.values()].sort((a, b) => b.costUsd - a.costUsd || b.runs - a.runs);
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
}

function countEvidence(
  evidenceOf: Map<string, EvidenceKind | "unrecorded">,
): TeamMetrics["intentions"]["byEvidence"] {
  const counts = Object.fromEntries([...EVIDENCE_KINDS, "unrecorded"].map((kind) => [kind, 0])) as Record<
    EvidenceKind | "unrecorded",
    number
  >;
  for (const kind of evidenceOf.values()) counts[kind] += 1;
  return counts;
}
