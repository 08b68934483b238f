import type { CheckTestHints } from "@/server/domain/contract/check-run";
import type { Criterion } from "@/server/domain/contract/criteria";
import type { Action, EventInput, ToolCallBody } from "@/server/domain/events/schema";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { IntentionView } from "@/server/domain/session/view";
import type { CycleLedger } from "@/server/governance/ledger/cycle-ledger";
import type { ToolDispatch } from "@/server/tools/dispatch";
import type { SessionWorkspace } from "./session-workspace";

/** What a cycle runs, and what the cycle runner and the checks outside a cycle need of the engine. */

export interface PlannedCycle {
  intention: IntentionView;
  thought: string;
  /** The tool call the cycle runs (the dispatch parses and gates it again). */
  call: ToolCallBody;
  /** How the log shows it (seed 000's Action type, content, target). */
  action: Action;
  approvalId: string | null;
  /** Who approved the command, when a person did (recorded in the trace ledger). */
  approver?: string | null;
  /** The binding of the exact command the person approved; the dispatch runs nothing else. */
  approvedBinding?: string;
}

/** What the cycle runner needs from the engine that owns it. */
export interface CycleHost {
  readonly runId: string;
  readonly workspace: SessionWorkspace;
  /** The one door to the sandbox: every action runs through its gates. */
  readonly tools: ToolDispatch;
  append(bodies: EventInput[]): Promise<void>;
  /** The project's checkpoint policy: which judgment questions go to a person. */
  checkpoints(): Promise<CheckpointPolicy>;
  /** The trace ledger (its records come back from the dispatch); absent in tests that do not care. */
  readonly ledger?: CycleLedger;
  /**
   * Where a running command's output goes as it arrives (the page's live lines; ephemeral, see
   * server/events/command-output.ts); `finish` once its result is stored. Absent: nothing streams.
   */
  readonly liveOutput?: {
    /** The cycle's action starts now (absent: only output is streamed). */
    start?(ids: { runId: string; intentionId: string; cycleId: string }): void;
    append(ids: { runId: string; intentionId: string; cycleId: string }, chunk: string): void;
    finish(cycleId: string): void;
  };
  /**
   * A person's approval that covers running `command` as a check of `intention` (decide/check-approvals.ts);
   * absent or null: the dispatch's policy alone decides, and a check it would ask about waits for a click.
   */
  checkApproval?(
    intention: IntentionView,
    command: string,
  ): { binding: string; approver: string | null } | null;
  /** Whether the limits leave room for one more cycle of this intention (a check's own card runs as one). */
  roomForCycle?(intention: IntentionView): boolean;
  /**
   * Whether a person already answered a card for this check outside a cycle (before any work, or at
   * integration): then it is not asked again, and without their approval it stays "could not run".
   */
  checkAnswered?(
    intention: IntentionView,
    phase: "baseline" | "integration" | "guard",
    command: string,
  ): boolean;
  /** The project's detected tests for this intention (detected-tests.ts), or null: the fallback check. */
  detectedTests?(intention: IntentionView): Criterion | null;
  /** What discovery read that decides a test check's reporter form (child-checks.ts testHintsOf). */
  testHints?(intention: IntentionView): CheckTestHints;
}

/** The intention being worked is the active intent; a command's effects have no path, so its scope is all. */
export function activeIntentOf(intention: Pick<IntentionView, "id">) {
  return { id: intention.id, ownedScope: ["**"] };
}
