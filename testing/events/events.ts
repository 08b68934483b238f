import { EventBody, type EventInput, type StoredEvent } from "@/server/domain/events/schema";

/** Numbers bodies into stored events, as the store would, for pure tests of folds and steps. */
export function sequence(bodies: EventInput[], from = 1): StoredEvent[] {
  return bodies.map((body, index) => ({
    seq: from + index,
    at: new Date(Date.UTC(2026, 10, 22, 0, 0, index)).toISOString(),
    body: EventBody.parse(body),
  }));
}

export const model = { id: "offline-heuristics", label: "offline", offline: true };

/** A minimal discovery result: the run has been through intent discovery. */
export function discovered(runId: string): EventInput {
  return {
    type: "intent-discovered",
    runId,
    intent: {
      prompt: { kind: "run", action: "run", targets: [], constraints: [] },
      codebase: null,
      memories: [],
      note: "not scanned in tests",
    },
  };
}

/** A run whose root was decomposed into two children and approved. */
export function decomposedRun(runId = "run-1"): EventInput[] {
  return [
    { type: "message-posted", messageId: "m1", runId, role: "user", text: "run `a` and run `b`" },
    { type: "run-started", runId, task: "run `a` and run `b`", mode: "agent", model },
    discovered(runId),
    {
      type: "intention-created",
      runId,
      intentionId: "root",
      parentId: null,
      what: "run `a` and run `b`",
      acceptance: "all done",
      depth: 0,
      position: 0,
    },
    { type: "intention-status-changed", runId, intentionId: "root", status: "ACTIVE", reason: null },
    { type: "decision-made", runId, intentionId: "root", decision: "decompose", reason: "compound task" },
    {
      type: "approval-requested",
      runId,
      approvalId: "ap1",
      intentionId: "root",
      kind: "decomposition",
      thought: "two parts",
      children: [
        { what: "run `a`", acceptance: "a exits 0" },
        { what: "run `b`", acceptance: "b exits 0" },
      ],
    },
    {
      type: "approval-decided",
      runId,
      approvalId: "ap1",
      decision: "approved",
      decidedBy: { userId: "u", name: "Ada" },
      reason: null,
    },
    {
      type: "intention-created",
      runId,
      intentionId: "c1",
      parentId: "root",
      what: "run `a`",
      acceptance: "a exits 0",
      depth: 1,
      position: 0,
    },
    {
      type: "intention-created",
      runId,
      intentionId: "c2",
      parentId: "root",
      what: "run `b`",
      acceptance: "b exits 0",
      depth: 1,
      position: 1,
    },
  ];
}

/** A finished cycle on `intentionId` with the given exit code, judged by exit code. */
export function cycle(runId: string, intentionId: string, cycleId: string, exitCode: number): EventInput[] {
  const judgment = exitCode === 0 ? "SUCCESS" : "FAILURE";
  return [
    { type: "intention-status-changed", runId, intentionId, status: "ACTIVE", reason: null },
    { type: "decision-made", runId, intentionId, decision: "verify-directly", reason: "child" },
    {
      type: "cycle-started",
      runId,
      intentionId,
      cycleId,
      index: 0,
      thought: "do it",
      action: { type: "COMMAND", content: "true", target: null },
    },
    {
      type: "cycle-result",
      runId,
      intentionId,
      cycleId,
      exitCode,
      output: "out",
      timedOut: false,
      error: null,
      durationMs: 5,
    },
    {
      type: "cycle-judged",
      runId,
      intentionId,
      cycleId,
      judgment,
      judgedBy: "auto",
      reason: `exit code ${exitCode}`,
    },
  ];
}

/**
 * A cycle that ran exactly the command its intention ("run `command`") requested and exited 0, with
 * the check that says so: what "ran as requested" evidence looks like in a log (issue #15).
 */
export function requestedCycle(
  runId: string,
  intentionId: string,
  cycleId: string,
  command: string,
): EventInput[] {
  const [active, decided, started, result, judged] = cycle(runId, intentionId, cycleId, 0) as [
    EventInput,
    EventInput,
    EventInput & { type: "cycle-started" },
    EventInput,
    EventInput,
  ];
  return [
    active,
    decided,
    { ...started, action: { ...started.action, content: command } },
    result,
    {
      type: "criteria-checked",
      runId,
      intentionId,
      cycleId,
      results: [{ criterion: { kind: "TESTS_PASS", command }, passed: true, evidence: "exited 0" }],
    },
    judged,
  ];
}

/** The bodies of the events of one type, typed, in log order. */
export const ofType = <T extends StoredEvent["body"]["type"]>(events: StoredEvent[], type: T) =>
  events
    .map((event) => event.body)
    .filter((body): body is Extract<EventBody, { type: T }> => body.type === type);
