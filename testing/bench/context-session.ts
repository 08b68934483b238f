import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { sequence } from "@/testing/events/events";

/**
 * A long scripted session for the context benchmark, as events: a root split into parts (approved by
 * a person), one part verified every five cycles, and the part being worked failing `cycles` times
 * with test output of a realistic size. Folded the way the engine folds its log.
 */
const runId = "run-1";
const model = { id: "m", label: "m", offline: false };

export function failedCycle(intentionId: string, cycle: number): EventInput[] {
  const cycleId = `cy${cycle}`;
  return [
    {
      type: "cycle-started",
      runId,
      intentionId,
      cycleId,
      index: cycle - 1,
      thought: `Run the parser tests for case ${cycle} to see what still fails.`,
      action: {
        type: "COMMAND",
        content: `npx vitest run src/parser.test.ts -t case-${cycle}`,
        target: null,
      },
    },
    {
      type: "cycle-result",
      runId,
      intentionId,
      cycleId,
      exitCode: 1,
      output: `FAIL src/parser.test.ts > parses case ${cycle}\nExpected: "a"\nReceived: "b"\n${"  at parse (src/parser.ts:42:7)\n".repeat(6)}`,
      timedOut: false,
      error: null,
      durationMs: 900,
    },
    {
      type: "cycle-judged",
      runId,
      intentionId,
      cycleId,
      judgment: "FAILURE",
      judgedBy: "auto",
      reason: "exit code 1",
    },
    {
      type: "cycle-reflected",
      runId,
      intentionId,
      cycleId,
      reflection: `Case ${cycle} still fails: the lexer drops the last token; try handling EOF explicitly.`,
    },
  ];
}

export function contextSession(cycles: number): { view: SessionView; intention: IntentionView } {
  const verified = Math.floor(cycles / 5);
  const parts = [
    ...Array.from({ length: verified }, (_, index) => `verified step ${index}`),
    "Fix the failing parser tests in src/parser.ts",
  ];
  const bodies: EventInput[] = [
    {
      type: "run-started",
      runId,
      task: "Make the test suite pass and add a CHANGELOG entry",
      mode: "agent",
      model,
    },
    {
      type: "intention-created",
      runId,
      intentionId: "root",
      parentId: null,
      what: "Make the test suite pass and add a CHANGELOG entry",
      acceptance: "`npm test` exits 0",
      depth: 0,
      position: 0,
    },
    { type: "decision-made", runId, intentionId: "root", decision: "decompose", reason: "compound task" },
    {
      type: "approval-requested",
      runId,
      approvalId: "split",
      intentionId: "root",
      kind: "decomposition",
      thought: "one part per failing area",
      children: parts.map((what) => ({ what, acceptance: "`npm test` exits 0" })),
    },
    {
      type: "approval-decided",
      runId,
      approvalId: "split",
      decision: "approved",
      decidedBy: { userId: "u", name: "Ada" },
      reason: null,
    },
  ];
  parts.forEach((what, position) => {
    const intentionId = position < verified ? `done${position}` : "work";
    bodies.push({
      type: "intention-created",
      runId,
      intentionId,
      parentId: "root",
      what,
      acceptance: "`npm run lint` exits 0",
      depth: 1,
      position,
    });
    if (position < verified)
      bodies.push({
        type: "intention-status-changed",
        runId,
        intentionId,
        status: "VERIFIED",
        reason: "`npm run lint` exited 0",
      });
  });
  for (let cycle = 1; cycle <= cycles; cycle++) bodies.push(...failedCycle("work", cycle));
  const view = foldEvents(sequence(bodies));
  const intention = view.intentions.work;
  if (!intention) throw new Error("the scripted session has no intention being worked");
  return { view, intention };
}
