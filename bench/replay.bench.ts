/**
 * Issue #6's replay goal, for the part that is ours: folding a 10 000-event session in the browser.
 * Prints the median time to fold the whole log (what first paint waits for) and to fold to a random
 * point (one scrub step), against parsing the same log from JSON in the same run (what any viewer pays).
 */
import { performance } from "node:perf_hooks";
import { foldEvents } from "@/server/domain/session/fold";
import { bigSession } from "../testing/bench/big-session";

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

const events = bigSession(10_000);
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
