import { randomUUID } from "node:crypto";
import type { EventInput, ToolCallBody } from "@/server/domain/events/schema";
import { type CheckpointPolicy, READ_ONLY_COMMANDS } from "@/server/domain/policy/checkpoints";
import type { CycleView, IntentionView } from "@/server/domain/session/view";
import { approvalBinding } from "@/server/policy/approval/binding";
import { gateCommand } from "@/server/policy/approval/command-gate";
import { describeOutput, describeRan, interruptionOf, type OutputSoFar } from "../output-so-far";

/**
 * A cycle whose action was cut off by a crash (`kill -9`, a power cut): its result was never
 * recorded. Running it again blindly could do twice what should happen once (append a line, send a
 * mail, push), so: the process it left in the container is ended first (the engine asks the sandbox),
 * then a read-only command runs again, and any other command asks a person, showing how long it ran
 * and what it printed before the crash (as far as the server kept it, output-so-far.ts).
 * Pure: the engine performs what `recoveryOf` decides.
 */

/** What the sandbox found of the cut-off command when the server came back. */
export interface Leftovers {
  /** Processes of commands from before the restart that were still running and were ended. */
  ended: number;
  /** How long the longest of them had been running when it was ended (null: none was running). */
  ranMs: number | null;
}

export type Recovery =
  /** Not a shell command (a file write, a read): judged UNCLEAR, the intention tries again. */
  | { kind: "retry"; events: EventInput[] }
  /** A read-only command: recorded as interrupted, and run again as it was. */
  | { kind: "rerun"; events: EventInput[]; call: ToolCallBody }
  /** Any other command: recorded as interrupted, and a person decides whether it runs again. */
  | { kind: "ask"; events: EventInput[] };

/** The call a cycle ran (older logs kept only the command). */
export function cycleCall(cycle: Pick<CycleView, "action">): ToolCallBody {
  const { action } = cycle;
  if (action.tool && action.input) return { tool: action.tool, input: action.input };
  return { tool: "shell.exec", input: { command: action.content } };
}

/**
 * Read-only by the command gate with only the built-in read-only programs allowed (not the project's
 * own allow-list, which may name commands that write, like a test runner): safe to run twice.
 */
export function isReadOnlyCommand(command: string, intentionId: string, policy: CheckpointPolicy): boolean {
  const strict: CheckpointPolicy = { ...policy, commands: "ask-unlisted", allowCommands: READ_ONLY_COMMANDS };
  return gateCommand(command, intentionId, strict).decision === "approve";
}

export function describeLeftovers(leftovers: Leftovers | null): string {
  if (!leftovers) return "the sandbox could not say whether it was still running";
  if (leftovers.ended === 0) return "it was no longer running when the server came back";
  const seconds = leftovers.ranMs === null ? "an unknown time" : `${(leftovers.ranMs / 1000).toFixed(1)} s`;
  return `it had been running for ${seconds} and was ended (${leftovers.ended} leftover process${leftovers.ended === 1 ? "" : "es"})`;
}

export function recoveryOf(
  runId: string,
  intention: Pick<IntentionView, "id">,
  cycle: Pick<CycleView, "id" | "action" | "output">,
  leftovers: Leftovers | null,
  policy: CheckpointPolicy,
  soFar: OutputSoFar | null = null,
): Recovery {
  const ids = { runId, intentionId: intention.id, cycleId: cycle.id };
  const call = cycleCall(cycle);
  const command =
    call.tool === "shell.exec" && typeof call.input.command === "string" ? call.input.command : null;
  const state = describeLeftovers(leftovers);
  const interruption = interruptionOf(leftovers, soFar);
  const printed = describeOutput(interruption);
  const judged = (reason: string): EventInput => ({
    type: "cycle-judged",
    ...ids,
    judgment: "UNCLEAR",
    judgedBy: "auto",
    reason,
  });
  const result = (next: string): EventInput => ({
    type: "cycle-result",
    ...ids,
    exitCode: null,
    // A command's result says what it printed before the crash; a file tool printed nothing.
    output: `(interrupted: the server stopped while this action ran; ${state}. ${next})${command === null ? "" : `\n${printed}`}`,
    timedOut: false,
    error: null,
    durationMs: interruption.ranMs ?? 0,
    interrupted: true,
  });
  if (command === null)
    return {
      kind: "retry",
      events: [result("It will be tried again."), judged("interrupted before its result was recorded")],
    };
  if (isReadOnlyCommand(command, intention.id, policy))
    return {
      kind: "rerun",
      call,
      events: [
        result("It is read-only, so it runs again."),
        judged("interrupted before its result was recorded; read-only, run again"),
      ],
    };
  const approvalId = randomUUID();
  return {
    kind: "ask",
    events: [
      result("It is not read-only: it runs again only if a person says so."),
      judged("interrupted before its result was recorded; a person decides whether it runs again"),
      {
        type: "approval-requested",
        runId,
        approvalId,
        intentionId: intention.id,
        kind: "command",
        command,
        binding: approvalBinding("shell.exec", { command }),
        confirm: true,
        reason: `interrupted by a server restart: ${describeRan(interruption)}; ${state}`,
        thought:
          `This command was cut off when the server stopped; ${describeRan(interruption)}. ` +
          "It may have done part of its work already. " +
          "Approve to run it again from the start, or reject to let the agent go on without it.",
        interruption,
      },
    ],
  };
}
