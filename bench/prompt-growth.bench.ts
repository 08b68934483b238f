/**
 * Issue #4's context benchmark: a long scripted session (one intention, many failed cycles, a growing
 * verified tree), and the prompt Arbor builds at cycle 10 and cycle 100 (goal: at most 1.2× growth),
 * against the tokens an unmanaged agent that resends its whole history would have sent for the same
 * run. Deterministic: sizes, not times.
 */
import { buildContext } from "@/server/model/context/build-context";
import type { AttemptView } from "@/server/model/context/failure-summary";
import { estimateTokens } from "@/server/model/context/text";

const chain = [
  {
    id: "root",
    what: "Make the test suite pass and add a CHANGELOG entry",
    acceptance: "`npm test` exits 0",
    decisions: ["split into 3"],
  },
  {
    id: "c2",
    what: "Fix the failing parser tests in src/parser.ts",
    acceptance: "`npx vitest run src/parser.test.ts` exits 0",
    decisions: [],
  },
];
const repoContext =
  "branch arbor/session-x\nmodified: src/parser.ts\nlast commits: fix lexer; add tests; init\n".repeat(4);

function attempt(cycle: number): AttemptView {
  return {
    id: `cy${cycle}`,
    cycle,
    action: `npx vitest run src/parser.test.ts -t case-${cycle}`,
    result: `FAIL src/parser.test.ts > parses case ${cycle}\nExpected: "a"\nReceived: "b"\n${"  at parse (src/parser.ts:42:7)\n".repeat(6)}`,
    judgment: "FAILURE",
    reflection: `Case ${cycle} still fails: the lexer drops the last token; try handling EOF explicitly.`,
  };
}

function contextAt(cycles: number): number {
  const attempts = Array.from({ length: cycles }, (_, index) => attempt(index + 1));
  const finishedSubtrees = Array.from({ length: Math.floor(cycles / 5) }, (_, index) => ({
    id: `done${index}`,
    what: `verified step ${index}`,
    verifiedBy: "`npm run lint` exited 0",
  }));
  const built = buildContext({
    intentionChain: chain,
    contract: [{ kind: "TESTS_PASS", description: "`npx vitest run src/parser.test.ts` exits 0" }],
    attempts,
    repoContext,
    finishedSubtrees,
  });
  return built.tokens;
}

/** What an agent that keeps the whole chat would send at each cycle: everything so far, again. */
function unmanagedTotal(cycles: number): { last: number; total: number } {
  let history = estimateTokens(JSON.stringify(chain)) + estimateTokens(repoContext);
  let total = 0;
  for (let cycle = 1; cycle <= cycles; cycle++) {
    total += history;
    const step = attempt(cycle);
    history += estimateTokens(`${step.action}\n${step.result}\n${step.reflection ?? ""}`);
  }
  return { last: history, total };
}

const at10 = contextAt(10);
const at100 = contextAt(100);
const managedTotal = Array.from({ length: 100 }, (_, index) => contextAt(index + 1)).reduce(
  (sum, tokens) => sum + tokens,
  0,
);
const unmanaged = unmanagedTotal(100);
const rows = [
  ["prompt tokens at cycle 10 (Arbor)", at10],
  ["prompt tokens at cycle 100 (Arbor)", at100],
  ["growth 10 → 100 (goal ≤ 1.20×)", `${(at100 / at10).toFixed(2)}×`],
  ["prompt tokens at cycle 100 (full-history agent)", unmanaged.last],
  ["tokens sent over 100 cycles (Arbor)", managedTotal],
  ["tokens sent over 100 cycles (full-history agent)", unmanaged.total],
  ["full-history / Arbor over the run", `${(unmanaged.total / managedTotal).toFixed(1)}×`],
] as const;
for (const [label, value] of rows) console.log(`${label.padEnd(50)} ${value}`);
if (at100 / at10 > 1.2) {
  console.error("prompt growth above the 1.2× goal");
  process.exitCode = 1;
}
