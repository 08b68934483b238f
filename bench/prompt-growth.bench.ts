/**
 * Issue #4's context benchmark: a long scripted session (one intention failing cycle after cycle, a
 * verified tree growing next to it), and the act prompt Arbor really sends — the session's events
 * folded, the context built from them (server/riva/decide/act-context.ts) and prompts/act.md filled with it
 * (server/model/act-prompt.ts) — at cycle 10 and cycle 100 (goal: at most 1.2× growth), against the
 * tokens an unmanaged agent that resends its whole history would have sent for the same run.
 * Deterministic: sizes, not times.
 */

import { estimateTokens } from "@/server/domain/text/tokens";
import { actInstructions } from "@/server/model/act-prompt";
import { actContext } from "@/server/riva/decide/act-context";
import { contextSession } from "../testing/bench/context-session";

const repoContext =
  "branch arbor/session-x\nmodified: src/parser.ts\nlast commits: fix lexer; add tests; init\n".repeat(4);
const MAX_READS = 8;

/** The act request's instructions when the intention has failed `cycles` times. */
function promptAt(cycles: number): { tokens: number; dropped: number } {
  const { view, intention } = contextSession(cycles);
  const built = actContext(view, intention, repoContext);
  const run = view.runs[intention.runId];
  const instructions = actInstructions(
    {
      task: run?.task ?? "",
      what: intention.what,
      acceptance: intention.acceptance,
      previousAttempts: [],
      context: built.body,
    },
    MAX_READS,
  );
  return { tokens: estimateTokens(instructions), dropped: built.record.dropped.length };
}

/** What an agent that keeps the whole chat would send at each cycle: everything so far, again. */
function unmanagedTotal(cycles: number): { last: number; total: number } {
  const { view, intention } = contextSession(0);
  let history = estimateTokens(
    actInstructions(
      {
        task: view.runs[intention.runId]?.task ?? "",
        what: intention.what,
        acceptance: intention.acceptance,
        previousAttempts: [],
        repoContext,
      },
      MAX_READS,
    ),
  );
  let total = 0;
  const { intention: worked } = contextSession(cycles);
  for (const cycle of worked.cycles) {
    total += history;
    history += estimateTokens(
      `${cycle.thought}\n${cycle.action.content}\n${cycle.output ?? ""}\n${cycle.reflection ?? ""}`,
    );
  }
  return { last: history, total };
}

const at10 = promptAt(10);
const at100 = promptAt(100);
let managedTotal = 0;
for (let cycle = 1; cycle <= 100; cycle++) managedTotal += promptAt(cycle).tokens;
const unmanaged = unmanagedTotal(100);
const rows = [
  ["act prompt tokens at cycle 10 (Arbor)", at10.tokens],
  ["act prompt tokens at cycle 100 (Arbor)", at100.tokens],
  ["growth 10 → 100 (goal ≤ 1.20×)", `${(at100.tokens / at10.tokens).toFixed(2)}×`],
  ["items left out, shortened or collapsed at cycle 100", at100.dropped],
  ["prompt tokens at cycle 100 (full-history agent)", unmanaged.last],
  ["tokens sent over 100 cycles (Arbor)", managedTotal],
  ["tokens sent over 100 cycles (full-history agent)", unmanaged.total],
  ["full-history / Arbor over the run", `${(unmanaged.total / managedTotal).toFixed(1)}×`],
] as const;
for (const [label, value] of rows) console.log(`${label.padEnd(52)} ${value}`);
if (at100.tokens / at10.tokens > 1.2) {
  console.error("prompt growth above the 1.2× goal");
  process.exitCode = 1;
}
