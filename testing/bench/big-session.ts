import { EventBody, type EventInput, type StoredEvent } from "@/server/domain/events/schema";

/**
 * A long session for the replay benchmarks: one run whose root has many children, each verified on
 * its third cycle (two failures with 400 bytes of output, then a success), cut at `target` events.
 */
export function bigSession(target: number): StoredEvent[] {
  const bodies: EventInput[] = [];
  const run = "run-1";
  bodies.push({
    type: "run-started",
    runId: run,
    task: "big",
    mode: "agent",
    model: { id: "m", label: "m", offline: true },
  });
  bodies.push({
    type: "intention-created",
    runId: run,
    intentionId: "root",
    parentId: null,
    what: "big",
    acceptance: "",
    depth: 0,
    position: 0,
  });
  let child = 0;
  while (bodies.length < target) {
    const id = `c${child}`;
    bodies.push({
      type: "intention-created",
      runId: run,
      intentionId: id,
      parentId: "root",
      what: `step ${child}`,
      acceptance: "exits 0",
      depth: 1,
      position: child,
    });
    for (let cycle = 0; cycle < 3 && bodies.length < target; cycle++) {
      const cycleId = `${id}-${cycle}`;
      bodies.push(
        {
          type: "cycle-started",
          runId: run,
          intentionId: id,
          cycleId,
          index: cycle,
          thought: "try",
          action: { type: "COMMAND", content: `make step-${child}`, target: null },
        },
        {
          type: "cycle-result",
          runId: run,
          intentionId: id,
          cycleId,
          exitCode: cycle === 2 ? 0 : 1,
          output: "x".repeat(400),
          timedOut: false,
          error: null,
          durationMs: 12,
        },
        {
          type: "cycle-judged",
          runId: run,
          intentionId: id,
          cycleId,
          judgment: cycle === 2 ? "SUCCESS" : "FAILURE",
          judgedBy: "auto",
          reason: "exit code",
        },
      );
    }
    bodies.push({
      type: "intention-status-changed",
      runId: run,
      intentionId: id,
      status: "VERIFIED",
      reason: "ok",
    });
    child += 1;
  }
  return bodies.slice(0, target).map((body, index) => ({
    seq: index + 1,
    at: new Date(1_800_000_000_000 + index).toISOString(),
    body: EventBody.parse(body),
  }));
}
