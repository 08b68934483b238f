import type { EventBody, EventOf, StoredEvent } from "@/server/domain/events/schema";
import { runTraceIds } from "./run-trace-ids";
import {
  checkOps,
  criteriaOps,
  modelCallOps,
  toolAttributes,
  toolCallOps,
  toolName,
} from "./single-event-ops";
import type { Attributes, TelemetryOp } from "./telemetry-ops";

/**
 * Issue #21.5: the spans and metrics of a session's log, derived from the events as they are appended
 * (the log is the source of truth; nothing in the engine reports telemetry itself). Pure: it returns
 * operations (telemetry-ops.ts) and keeps only what it needs to nest spans: the open runs, their open
 * intentions, actions and approvals, and when each approval was asked.
 *
 * The tree: a run ("invoke_agent Arbor") → its intentions (a child's under its parent's) → model calls
 * ("chat <model>"), tool calls ("execute_tool <tool>": reads, and each cycle's action from its start
 * to its result), approvals (from the question to the answer) and checks ("arbor.check").
 */

/** What is remembered of an open run: enough to name its model calls' provider and bound its children. */
interface OpenRun {
  provider: string;
  children: Set<string>;
}

const FINAL_INTENTION = new Set(["VERIFIED", "FAILED"]);
/** Open runs kept at most: a run whose end never comes (a server that stopped for good) is dropped. */
const MAX_OPEN_RUNS = 1_000;

const runKey = (runId: string) => `run:${runId}`;
const childKey = (kind: string, runId: string, id: string) => `${kind}:${runId}:${id}`;
const ms = (at: string) => Date.parse(at);

export class TelemetryOfEvents {
  private readonly runs = new Map<string, OpenRun>();
  private readonly approvalsAsked = new Map<string, { atMs: number; kind: string }>();
  /** The tool of each action under way, by its span's key: its result counts it by tool and risk. */
  private readonly actionTools = new Map<string, string>();
  /** Runs that ended lately: a message or a record appended after the end opens no new span. */
  private readonly ended = new Set<string>();

  /** The operations one appended event leads to, in order. */
  ops(sessionId: string, event: StoredEvent): TelemetryOp[] {
    const body = event.body;
    const atMs = ms(event.at);
    if (body.type === "run-started") return this.runStarted(sessionId, body, atMs);
    const runId = "runId" in body ? body.runId : null;
    // A person's message is posted before its run starts: it says nothing telemetry counts.
    if (runId === null || this.ended.has(runId) || body.type === "message-posted") return [];
    const out: TelemetryOp[] = [];
    // A run this process never saw start (resumed after a restart, or moved from another instance):
    // its root again, from here on and marked as such, with the same ids (the same trace, the same
    // parent for every child before and after the restart).
    if (!this.runs.has(runId) && body.type !== "run-ended")
      out.push(...this.openRun(sessionId, runId, atMs, { "arbor.run.resumed": true }, "unknown"));
    out.push(...this.opsOfRunEvent(sessionId, runId, body, atMs));
    return out;
  }

  private opsOfRunEvent(sessionId: string, runId: string, body: EventBody, atMs: number): TelemetryOp[] {
    switch (body.type) {
      case "run-ended":
        return this.runEnded(runId, body, atMs);
      case "intention-created":
        return this.intentionCreated(runId, body, atMs);
      case "intention-status-changed":
        return this.intentionStatusChanged(runId, body, atMs);
      case "llm-called": {
        const parentKey = this.parentOf(runId, body.intentionId);
        const provider = this.runs.get(runId)?.provider ?? "unknown";
        return modelCallOps({ sessionId, parentKey, provider, atMs }, body);
      }
      case "tool-called": {
        const parentKey = this.parentOf(runId, body.intentionId);
        return toolCallOps({ runId, parentKey, atMs, kind: "read" }, body);
      }
      case "answer-tool-called":
        return toolCallOps(
          { runId, parentKey: runKey(runId), atMs, kind: "answer" },
          { ...body, durationMs: 0 },
        );
      case "cycle-started":
        return this.cycleStarted(runId, body, atMs);
      case "cycle-result":
        return this.cycleResult(runId, body, atMs);
      case "approval-requested":
        return this.approvalRequested(runId, body, atMs);
      case "approval-decided":
        return this.approvalDecided(runId, body, atMs);
      case "check-ran":
        return checkOps(this.parentOf(runId, body.intentionId), body, atMs);
      case "criteria-checked":
        return criteriaOps(body);
      default:
        return [];
    }
  }

  private runStarted(sessionId: string, body: EventOf<"run-started">, atMs: number): TelemetryOp[] {
    return this.openRun(
      sessionId,
      body.runId,
      atMs,
      {
        "arbor.run.mode": body.mode,
        "arbor.run.reasoning": body.reasoning,
        "gen_ai.request.model": body.model.id,
        "arbor.model.offline": body.model.offline,
      },
      body.model.provider ?? (body.model.offline ? "arbor.offline" : "unknown"),
    );
  }

  private openRun(
    sessionId: string,
    runId: string,
    atMs: number,
    attributes: Attributes,
    provider: string,
  ): TelemetryOp[] {
    const out: TelemetryOp[] = [];
    // The oldest open run is closed rather than kept forever (its end event never came here).
    if (this.runs.size >= MAX_OPEN_RUNS) {
      const [oldest] = this.runs.keys();
      if (oldest !== undefined)
        out.push(...this.closeRun(oldest, atMs, { "arbor.run.status": "unknown" }, null));
    }
    this.ended.delete(runId);
    this.runs.set(runId, { provider, children: new Set() });
    out.push({
      op: "start",
      key: runKey(runId),
      parentKey: null,
      name: "invoke_agent Arbor",
      startMs: atMs,
      ids: runTraceIds(runId),
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "Arbor",
        "gen_ai.conversation.id": sessionId,
        "arbor.session.id": sessionId,
        "arbor.run.id": runId,
        ...attributes,
      },
    });
    return out;
  }

  private runEnded(runId: string, body: EventOf<"run-ended">, atMs: number): TelemetryOp[] {
    // A run ended right after a restart has no span here; it still counts.
    const ended = !this.runs.has(runId)
      ? this.markEnded(runId)
      : this.closeRun(
          runId,
          atMs,
          { "arbor.run.status": body.status },
          body.status === "FAILED" ? "run failed" : null,
        );
    const counted: TelemetryOp = {
      op: "count",
      metric: "arbor.runs",
      value: 1,
      attributes: { "arbor.run.status": body.status },
    };
    return [...ended, counted];
  }

  /** Ends the run's span and every child still open under it (children first). */
  private closeRun(runId: string, atMs: number, attributes: Attributes, error: string | null): TelemetryOp[] {
    const run = this.runs.get(runId);
    this.runs.delete(runId);
    this.markEnded(runId);
    for (const key of run?.children ?? []) {
      this.approvalsAsked.delete(key);
      this.actionTools.delete(key);
    }
    const children: TelemetryOp[] = [...(run?.children ?? [])].reverse().map((key) => ({
      op: "end",
      key,
      endMs: atMs,
      attributes: { "arbor.ended_with_run": true },
      error: null,
    }));
    return [...children, { op: "end", key: runKey(runId), endMs: atMs, attributes, error }];
  }

  /** Remembers the run as ended (the latest ones only); returns no operation. */
  private markEnded(runId: string): TelemetryOp[] {
    this.ended.add(runId);
    if (this.ended.size > MAX_OPEN_RUNS) this.ended.delete(this.ended.values().next().value as string);
    return [];
  }

  private openChild(runId: string, key: string): void {
    this.runs.get(runId)?.children.add(key);
  }

  /** True when the child was open (and is now closed). */
  private closeChild(runId: string, key: string): boolean {
    return this.runs.get(runId)?.children.delete(key) ?? false;
  }

  /** An intention's span when it is open, else the run's: where a model call or a tool call hangs. */
  private parentOf(runId: string, intentionId: string | null): string {
    const key = intentionId === null ? null : childKey("intention", runId, intentionId);
    return key !== null && this.runs.get(runId)?.children.has(key) ? key : runKey(runId);
  }

  private intentionCreated(runId: string, body: EventOf<"intention-created">, atMs: number): TelemetryOp[] {
    const key = childKey("intention", runId, body.intentionId);
    const parentKey = body.parentId === null ? runKey(runId) : this.parentOf(runId, body.parentId);
    this.openChild(runId, key);
    return [
      {
        op: "start",
        key,
        parentKey,
        name: "arbor.intention",
        startMs: atMs,
        attributes: {
          "arbor.run.id": runId,
          "arbor.intention.id": body.intentionId,
          "arbor.intention.depth": body.depth,
          "arbor.intention.position": body.position,
        },
      },
    ];
  }

  private intentionStatusChanged(
    runId: string,
    body: EventOf<"intention-status-changed">,
    atMs: number,
  ): TelemetryOp[] {
    if (!FINAL_INTENTION.has(body.status)) return [];
    const out: TelemetryOp[] = [];
    if (body.status === "VERIFIED")
      out.push({
        op: "count",
        metric: "arbor.verifications",
        value: 1,
        attributes: { "arbor.evidence.kind": body.evidence ?? "unrecorded" },
      });
    const key = childKey("intention", runId, body.intentionId);
    if (this.closeChild(runId, key))
      out.push({
        op: "end",
        key,
        endMs: atMs,
        attributes: {
          "arbor.intention.status": body.status,
          ...(body.evidence ? { "arbor.evidence.kind": body.evidence } : {}),
        },
        error: body.status === "FAILED" ? "intention failed" : null,
      });
    return out;
  }

  /** A cycle's action: a span from its start to its result, under its intention. */
  private cycleStarted(runId: string, body: EventOf<"cycle-started">, atMs: number): TelemetryOp[] {
    const tool = toolName(body.action.tool);
    const key = childKey("cycle", runId, body.cycleId);
    const parentKey = this.parentOf(runId, body.intentionId);
    this.openChild(runId, key);
    this.actionTools.set(key, tool);
    return [
      {
        op: "start",
        key,
        parentKey,
        name: `execute_tool ${tool}`,
        startMs: atMs,
        attributes: {
          ...toolAttributes(tool, "action"),
          "arbor.action.type": body.action.type,
          "arbor.run.id": runId,
          "arbor.intention.id": body.intentionId,
          "arbor.cycle.id": body.cycleId,
          "arbor.cycle.index": body.index,
          ...(body.gate ? { "arbor.gate.decision": body.gate.decision } : {}),
          ...(body.approvalId ? { "arbor.approval.id": body.approvalId } : {}),
        },
      },
    ];
  }

  private cycleResult(runId: string, body: EventOf<"cycle-result">, atMs: number): TelemetryOp[] {
    const key = childKey("cycle", runId, body.cycleId);
    const tool = this.actionTools.get(key) ?? "unknown";
    this.actionTools.delete(key);
    if (!this.closeChild(runId, key)) return [];
    const outcome =
      body.error !== null
        ? "error"
        : body.interrupted
          ? "interrupted"
          : body.timedOut
            ? "timed-out"
            : body.exitCode === 0 || body.exitCode === null
              ? "ok"
              : "failed";
    return [
      {
        op: "end",
        key,
        endMs: atMs,
        attributes: {
          "arbor.tool.outcome": outcome,
          ...(body.exitCode === null ? {} : { "arbor.exit_code": body.exitCode }),
        },
        error: outcome === "ok" ? null : `action ${outcome}`,
      },
      {
        op: "count",
        metric: "arbor.tool_calls",
        value: 1,
        attributes: { ...toolAttributes(tool, "action"), "arbor.tool.outcome": outcome },
      },
    ];
  }

  private approvalRequested(runId: string, body: EventOf<"approval-requested">, atMs: number): TelemetryOp[] {
    const key = childKey("approval", runId, body.approvalId);
    this.approvalsAsked.set(key, { atMs, kind: body.kind });
    this.openChild(runId, key);
    return [
      {
        op: "start",
        key,
        parentKey: this.parentOf(runId, body.intentionId),
        name: "arbor.approval",
        startMs: atMs,
        attributes: {
          "arbor.run.id": runId,
          "arbor.approval.id": body.approvalId,
          "arbor.approval.kind": body.kind,
          "arbor.approval.confirm": body.confirm,
          ...(body.call ? { "gen_ai.tool.name": toolName(body.call.tool) } : {}),
        },
      },
    ];
  }

  private approvalDecided(runId: string, body: EventOf<"approval-decided">, atMs: number): TelemetryOp[] {
    const key = childKey("approval", runId, body.approvalId);
    const asked = this.approvalsAsked.get(key);
    this.approvalsAsked.delete(key);
    const kind = asked?.kind ?? "unknown";
    const attributes = { "arbor.approval.kind": kind, "arbor.approval.decision": body.decision };
    const out: TelemetryOp[] = [{ op: "count", metric: "arbor.approvals", value: 1, attributes }];
    if (asked) {
      const waitedMs = Math.max(0, atMs - asked.atMs);
      out.push({ op: "record", metric: "arbor.approval.wait", value: waitedMs / 1000, attributes });
    }
    if (this.closeChild(runId, key))
      out.push({
        op: "end",
        key,
        endMs: atMs,
        attributes: {
          "arbor.approval.decision": body.decision,
          "arbor.approval.decided_by": body.decidedBy.userId,
        },
        error: null,
      });
    return out;
  }
}
