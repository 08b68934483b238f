import { randomUUID } from "node:crypto";
import type { EventInput, ToolCallBody } from "@/server/domain/events/schema";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { capEndCounted } from "@/server/domain/text/cap";
import { isInTurnCall } from "@/server/model/act-turn";
import type { NextAction } from "@/server/model/actions";
import type { ReadPort } from "@/server/model/types";
import type { ToolDispatch } from "@/server/tools/dispatch";
import { resultText } from "@/server/tools/dispatch";
import { proposedAgainReason, rejectedBefore } from "../decide/rejected-before";
import { statusChanged } from "../decide/run-events";
import { actionOf, describeCall } from "../decide/tool-action";
import { approvalRequestFor, contentFromNumberedRead, refusal } from "../decide/tool-approval";
import { activeIntentOf } from "./cycle-host";
import type { CycleRunner } from "./cycle-runner";

/**
 * The act step after the model answered: the reads it made along the way are already in the log;
 * its action is gated by the dispatch (without running), then run, sent to a person, or recorded as
 * refused. A write, an edit or a delete first reads the file as it is (through the dispatch, as every
 * sandbox access) so the person sees both sides of the change and the log says CREATE or EDIT.
 */

/** Reads per act turn, and how much of each read's output the log keeps. */
export const MAX_READS_PER_TURN = 8;
const MAX_LOGGED_READ_CHARS = 4_000;
/** What the model is shown of one read (the log keeps less). */
const MAX_READ_CHARS_FOR_MODEL = 32_000;

export interface ActHost {
  readonly runId: string;
  readonly tools: ToolDispatch;
  readonly cycles: CycleRunner;
  view(): SessionView;
  append(bodies: EventInput[]): Promise<void>;
}

/** The read port handed to the model for one act turn: read-only tools only, each one logged. */
export function readPortFor(host: ActHost, intention: IntentionView, signal?: AbortSignal): ReadPort {
  const cycleIndex = intention.cycles.length;
  return {
    maxReads: MAX_READS_PER_TURN,
    async run(call) {
      if (!isInTurnCall(call.tool)) return `${call.tool} is not a read; call it as your action instead.`;
      const result = await host.tools.run(call, {
        activeIntent: activeIntentOf(intention),
        ...(signal ? { signal } : {}),
      });
      const text = resultText(result);
      await host.append([
        {
          type: "tool-called",
          runId: host.runId,
          intentionId: intention.id,
          cycleIndex,
          tool: call.tool,
          input: describeCall(call),
          status: result.status,
          output: capEndCounted(text, MAX_LOGGED_READ_CHARS),
          durationMs: result.durationMs,
        },
        // From now on the run's writes must stay in this intent's owned_scope (decide/run-scope.ts).
        ...(result.status === "ok" && result.selectedIntent
          ? [
              {
                type: "intent-selected" as const,
                runId: host.runId,
                intentionId: intention.id,
                intentId: result.selectedIntent.id,
                ownedScope: [...result.selectedIntent.ownedScope],
              },
            ]
          : []),
      ]);
      return capEndCounted(text === "" ? "(no output)" : text, MAX_READ_CHARS_FOR_MODEL);
    },
  };
}

const FILE_TOOLS = new Set(["fs.write", "fs.edit", "fs.delete"]);

/** The file's content before the call (null: it does not exist), read through the dispatch. */
async function fileBefore(
  host: ActHost,
  intention: IntentionView,
  call: ToolCallBody,
): Promise<string | null> {
  if (!FILE_TOOLS.has(call.tool) || typeof call.input.path !== "string") return null;
  const read = await host.tools.run(
    { tool: "fs.read", input: { path: call.input.path } },
    { activeIntent: activeIntentOf(intention) },
  );
  return read.status === "ok" ? contentFromNumberedRead(read.output) : null;
}

/**
 * Full mode's Critic (roles.ts), asked before the gate: the events its review adds to the cycle
 * and, when it sends the change back, why. Null: no review for this call.
 */
export type Reviewer = (
  thought: string,
  call: ToolCallBody,
  before: string | null,
) => Promise<{ events: EventInput[]; revise: string | null } | null>;

export async function carryOutAction(
  host: ActHost,
  intention: IntentionView,
  next: NextAction,
  /** The model call that chose the action; null when the engine chose it (test first). */
  llmCall: EventInput | null,
  review?: Reviewer,
): Promise<void> {
  const llm = llmCall ? [llmCall] : [];
  const proposed: ToolCallBody = { tool: next.tool, input: next.input };
  const checked = await host.tools.check(proposed, { activeIntent: activeIntentOf(intention) });
  // The parsed input (defaults filled in) is what runs and what a person's approval is bound to.
  const call: ToolCallBody =
    checked.input && typeof checked.input === "object"
      ? { tool: proposed.tool, input: checked.input as Record<string, unknown> }
      : proposed;
  const before = checked.status === "invalid" ? null : await fileBefore(host, intention, call);
  const cycle = {
    intention,
    thought: next.thought,
    call,
    action: actionOf(call, FILE_TOOLS.has(call.tool) ? before !== null : null),
    approvalId: null,
  };
  if (checked.status === "invalid") {
    const why = checked.error?.message ?? "invalid call";
    return host.cycles.blocked(cycle, { decision: "deny", reason: why }, "policy", why, llm);
  }
  const reviewed = await review?.(next.thought, call, before);
  if (reviewed) {
    llm.push(...reviewed.events);
    // Sent back before anyone is asked: the cycle fails with the Critic's issues for the next attempt.
    if (reviewed.revise)
      return host.cycles.blocked(
        cycle,
        { decision: "deny", reason: reviewed.revise },
        "critic",
        reviewed.revise,
        llm,
      );
  }
  const gate = refusal(checked.gate, checked.error?.message ?? "invalid call");
  // Rejected once in this intention: never asked again unchanged (issue #17.4); the intention ends.
  const rejected = gate.decision === "ask" ? rejectedBefore(host.view(), intention, call) : undefined;
  if (rejected) {
    return host.append([
      ...llm,
      statusChanged(host.runId, intention, "FAILED", proposedAgainReason(rejected, call)),
    ]);
  }
  if (gate.decision === "ask" && checked.binding) {
    const preview = call.tool === "git.commit" ? (checked.preview ?? null) : before;
    const request = approvalRequestFor({
      runId: host.runId,
      intentionId: intention.id,
      approvalId: randomUUID(),
      thought: next.thought,
      call,
      binding: checked.binding,
      gate: {
        reason: gate.reason,
        confirm: checked.gate?.decision === "ask" && checked.gate.confirm === true,
      },
      preview,
    });
    if (request.ok) return host.append([...llm, request.event]);
    return host.cycles.blocked(
      cycle,
      { decision: "deny", reason: request.reason },
      "policy",
      request.reason,
      llm,
    );
  }
  if (gate.decision !== "approve")
    return host.cycles.blocked(cycle, gate, "policy", `denied by the approval gate: ${gate.reason}`, llm);
  return host.cycles.run(cycle, gate, llm);
}
