import type { EventOf } from "@/server/domain/events/schema";
import type { CycleView, SessionView } from "@/server/domain/session/view";

/**
 * A cycle's events and its intention's contract, folded (see `applyEvent`): the thought and action,
 * the result, the judgment, the reflection, and the contract's checks after it.
 */
type CycleEvent = EventOf<
  | "cycle-started"
  | "cycle-result"
  | "cycle-judged"
  | "cycle-reflected"
  | "contract-built"
  | "criteria-checked"
>;

function findCycle(view: SessionView, intentionId: string, cycleId: string): CycleView | undefined {
  return view.intentions[intentionId]?.cycles.find((cycle) => cycle.id === cycleId);
}

export function foldCycleEvent(view: SessionView, body: CycleEvent): void {
  switch (body.type) {
    case "cycle-started": {
      const intention = view.intentions[body.intentionId];
      const test = intention?.contractBy?.generatedTest;
      intention?.cycles.push({
        id: body.cycleId,
        approvalId: body.approvalId,
        gate: body.gate,
        index: body.index,
        thought: body.thought,
        action: body.action,
        exitCode: null,
        output: null,
        timedOut: false,
        error: null,
        durationMs: null,
        tests: null,
        judgment: null,
        judgedBy: null,
        judgmentReason: null,
        reflection: null,
        checks: null,
        testFirst:
          !!test &&
          body.index === test.atCycle &&
          body.action.tool === "fs.write" &&
          body.action.target === test.path,
        interrupted: false,
      });
      break;
    }
    case "cycle-result": {
      const cycle = findCycle(view, body.intentionId, body.cycleId);
      if (cycle) {
        cycle.exitCode = body.exitCode;
        cycle.output = body.output;
        cycle.timedOut = body.timedOut;
        cycle.error = body.error;
        cycle.durationMs = body.durationMs;
        cycle.tests = body.tests ?? null;
        cycle.interrupted = body.interrupted === true;
      }
      break;
    }
    case "cycle-judged": {
      const cycle = findCycle(view, body.intentionId, body.cycleId);
      if (cycle) {
        cycle.judgment = body.judgment;
        cycle.judgedBy = body.judgedBy;
        cycle.judgmentReason = body.reason;
      }
      break;
    }
    case "cycle-reflected": {
      const cycle = findCycle(view, body.intentionId, body.cycleId);
      if (cycle) cycle.reflection = body.reflection;
      break;
    }
    case "contract-built": {
      const intention = view.intentions[body.intentionId];
      if (!intention) break;
      intention.contract = body.criteria;
      intention.contractBy = {
        source: body.source,
        dropped: body.dropped,
        generatedTest: body.generatedTest && { ...body.generatedTest, atCycle: intention.cycles.length },
        ...(body.detectedTests?.length ? { detectedTests: body.detectedTests } : {}),
      };
      break;
    }
    case "criteria-checked": {
      const intention = view.intentions[body.intentionId];
      if (body.cycleId === null) {
        if (intention) intention.integrationChecks = body.results;
      } else {
        const cycle = findCycle(view, body.intentionId, body.cycleId);
        if (cycle) cycle.checks = body.results;
      }
      break;
    }
  }
}
