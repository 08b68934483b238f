import type { EventOf } from "@/server/domain/events/schema";
import {
  type AgentTraceRecord,
  ARBOR_METADATA_KEY,
  arborMetadataOf,
  type TraceRecordedBody,
} from "@/server/domain/events/trace-schema";
import { type CollectResult, collectCycleTrace, type LedgerExec, snapshotWorkingTree } from "./collect";
import type { LedgerContributor } from "./record";
import { type SessionPatch, sessionPatch } from "./session-patch";

/**
 * The trace ledger as the cycle runner uses it, in three calls around one cycle:
 *
 *   const mark = await ledger.begin();                       // before the action runs
 *   const written = await ledger.afterAction(mark, ids);    // right after it, before contract checks
 *   const event = ledger.judged(written, ids, judgment, approver);  // pure; null when nothing changed
 *
 * Collecting right after the action (not after the contract checks) credits the model with what its
 * command wrote, not with what a test run left behind. Every call is safe: a ledger failure is
 * logged and yields no records; it never fails or delays the cycle beyond its git commands.
 */

export interface CycleIds {
  /** null (with intentionId) for a person's save in the editor: no run or intention wrote it. */
  runId: string | null;
  intentionId: string | null;
  cycleId: string;
}

export interface LedgerMark {
  /** The working tree before the action, as a git tree id (null: diff against HEAD instead). */
  before: string | null;
}

interface LedgerLogger {
  warn(object: object, message: string): void;
}

/** Judgments after which the action ran and its changes are recorded (UNCLEAR: cut off, retried). */
const RECORDED_JUDGMENTS = new Set(["SUCCESS", "PARTIAL", "FAILURE"]);

export class CycleLedger {
  /** Each changing cycle's session patch, from `afterAction` until `workspaceChanged` takes it. */
  private readonly patches = new Map<string, SessionPatch>();

  constructor(
    private readonly exec: LedgerExec,
    private readonly context: {
      sessionId: string;
      modelId: string;
      /** Who writes through this ledger; the model (`modelId`) unless a person's editor says so. */
      contributor?: LedgerContributor;
      logger?: LedgerLogger;
    },
  ) {}

  async begin(): Promise<LedgerMark> {
    return { before: await snapshotWorkingTree(this.exec) };
  }

  async afterAction(mark: LedgerMark, ids: CycleIds): Promise<AgentTraceRecord[]> {
    const result: CollectResult = await collectCycleTrace({
      exec: this.exec,
      before: mark.before,
      sessionId: this.context.sessionId,
      ...ids,
      modelId: this.context.modelId,
      ...(this.context.contributor ? { contributor: this.context.contributor } : {}),
      approver: null,
      checkResult: null,
    });
    if (result.problem)
      this.context.logger?.warn({ ...ids, problem: result.problem }, "trace ledger could not collect");
    // A delete writes no lines (no record) but changes the workspace all the same: the replay's files
    // must follow it, so any change of the working tree gets its session patch.
    const changed = result.records.length > 0 || (mark.before !== null && result.after !== mark.before);
    if (changed && result.after) {
      const patch = await sessionPatch(this.exec, result.after);
      if (patch) this.patches.set(ids.cycleId, patch);
    }
    return result.records;
  }

  /** The cycle's `workspace-changed` event (the session's diff since its start), once; null if none. */
  workspaceChanged(ids: CycleIds): EventOf<"workspace-changed"> | null {
    const patch = this.patches.get(ids.cycleId);
    this.patches.delete(ids.cycleId);
    return patch ? { type: "workspace-changed", ...ids, ...patch } : null;
  }

  /** The cycle's `trace-recorded` event with its judgment and approver filled in, or null. */
  judged(
    records: readonly AgentTraceRecord[],
    ids: CycleIds,
    judgment: string,
    approver: string | null,
  ): TraceRecordedBody | null {
    if (records.length === 0 || !RECORDED_JUDGMENTS.has(judgment)) return null;
    return {
      type: "trace-recorded",
      ...ids,
      records: records.map((record) => withOutcome(record, judgment, approver)),
    };
  }
}

/** A record with Arbor's `check_result` and `approver` set (other metadata kept as it is). */
export function withOutcome(
  record: AgentTraceRecord,
  checkResult: string,
  approver: string | null,
): AgentTraceRecord {
  const meta = arborMetadataOf(record);
  if (!meta) return record;
  return {
    ...record,
    metadata: { ...record.metadata, [ARBOR_METADATA_KEY]: { ...meta, check_result: checkResult, approver } },
  };
}
