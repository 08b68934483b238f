import { randomUUID } from "node:crypto";
import type { EventInput } from "@/server/domain/events/schema";
import type { Step } from "./step";

type CheckpointStep = Extract<Step, { kind: "ask" | "judge" | "reflect" | "split-budget" }>;

/** The events a checkpoint step writes: a question for a person, a recorded verdict, or a budget split. */
export function checkpointEvents(runId: string, step: CheckpointStep): EventInput[] {
  const ids = { runId, intentionId: step.intention.id };
  switch (step.kind) {
    case "ask":
      return [
        {
          type: "approval-requested",
          ...ids,
          approvalId: randomUUID(),
          kind: step.approvalKind,
          thought: step.thought,
          proposal: step.proposal,
        },
      ];
    case "judge": {
      const events: EventInput[] = [
        {
          type: "cycle-judged",
          ...ids,
          cycleId: step.cycleId,
          judgment: step.judgment,
          judgedBy: step.judgedBy,
          reason: step.reason,
        },
      ];
      if (step.reflection !== null)
        events.push({ type: "cycle-reflected", ...ids, cycleId: step.cycleId, reflection: step.reflection });
      return events;
    }
    case "reflect":
      return [{ type: "cycle-reflected", ...ids, cycleId: step.cycleId, reflection: step.reflection }];
    case "split-budget":
      return [{ type: "budget-split", ...ids, rule: step.rule, shares: step.shares }];
  }
}
