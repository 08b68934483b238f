/**
 * Issue #6's replay goal, for the part that is ours: folding a 10 000-event session in the browser.
 * Prints the median time to fold the whole log (what first paint waits for) and to fold to a random
 * point (one scrub step), against parsing the same log from JSON in the same run (what any viewer pays).
 */
import { performance } from "node:perf_hooks";
import { foldEvents } from "@/server/events/fold";
import { EventBody, type EventInput, type StoredEvent } from "@/server/events/schema";

function session(target: number): StoredEvent[] {
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

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function time(runs: number, work: () => void): number {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const events = session(10_000);
const json = JSON.stringify(events);
const parse = time(15, () => JSON.parse(json));
const full = time(15, () => foldEvents(events));
const scrub = time(60, () => foldEvents(events.slice(0, Math.floor(Math.random() * events.length))));
console.log(`${"measure".padEnd(44)} median`);
console.log(`${"baseline: JSON.parse of the 10 000 events".padEnd(44)} ${parse.toFixed(1)} ms`);
console.log(
  `${"fold all 10 000 events (first paint)".padEnd(44)} ${full.toFixed(1)} ms (${(full / parse).toFixed(2)}× parse)`,
);
console.log(`${"fold to a random point (one scrub step)".padEnd(44)} ${scrub.toFixed(1)} ms`);
console.log(
  `goal first paint < 1 s: ${full + parse < 1000 ? "met" : "missed"} (${(full + parse).toFixed(1)} ms for parse + fold)`,
);
