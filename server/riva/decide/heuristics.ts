import type { RivaLimits } from "@/server/domain/session/limits";
import type { CycleView, IntentionView } from "@/server/domain/session/view";

/**
 * Seed 000's decision functions, pure. Each answer carries the rule that produced it, because the
 * event log must explain every decision on its own.
 */
export interface Verdict {
  yes: boolean;
  reason: string;
}

const COMPOUND = /\b(and|then|also)\b|;|\n\s*(?:[-*]|\d+[.)])\s+/i;
const MAX_DIRECT_LENGTH = 200;
/** Words that name a check a command can make (seed: "must have verifiable indicators"). */
const TESTABLE =
  /\b(exit(s|ed)?( code)?|pass(es|ed)?|succeed(s|ed)?|exists?|contains?|outputs?|prints?|returns?|matches|equals?|shows?|lists?|compiles?|builds?|is (created|present|empty|installed|running)|completes?)\b|`[^`]+`/i;

/** Code spans are single commands even when they contain `&&` or `;`, so they never make a task compound. */
function withoutCodeSpans(text: string): string {
  return text.replace(/`[^`\n]*`/g, "CMD");
}

export function canVerifyDirectly(intention: Pick<IntentionView, "what" | "acceptance">): Verdict {
  const what = withoutCodeSpans(intention.what);
  if (COMPOUND.test(what)) {
    return { yes: false, reason: 'compound structure ("and", "then", "also", a list or several steps)' };
  }
  if (intention.what.length > MAX_DIRECT_LENGTH) {
    return { yes: false, reason: `description longer than ${MAX_DIRECT_LENGTH} characters` };
  }
  if (!TESTABLE.test(`${intention.acceptance} ${intention.what}`)) {
    return { yes: false, reason: "acceptance has no verifiable indicator (exit code, file, output, tests)" };
  }
  return { yes: true, reason: "a single step with a testable acceptance" };
}

/** The same action with the same result twice in a row: retrying it again will not help. */
export function isStalled(cycles: readonly CycleView[]): boolean {
  const [previous, last] = cycles.slice(-2);
  if (!previous || !last) return false;
  return (
    previous.action.content === last.action.content &&
    previous.exitCode === last.exitCode &&
    (previous.output ?? previous.error) === (last.output ?? last.error)
  );
}

const REFLECTION_SUGGESTS = /\b(decompose|split (it|this)|smaller steps|too (large|big|broad))\b/i;

const sameAttempt = (a: CycleView, b: CycleView) =>
  a.action.content === b.action.content &&
  a.judgment === b.judgment &&
  a.exitCode === b.exitCode &&
  (a.output ?? a.error) === (b.output ?? b.error);

/**
 * The stall rule: the last judged cycle repeated an earlier one of the same intention exactly (action,
 * judgment, exit code, output), whatever the judgment (PARTIAL and UNCLEAR too) and wherever the
 * earlier one was (another tier's cycles included). Names the action, the judgment and how often.
 */
export function stallOf(history: readonly CycleView[]): string | null {
  const judged = history.filter((cycle) => cycle.judgment !== null && !cycle.testFirst && !cycle.interrupted);
  const last = judged.at(-1);
  if (!last) return null;
  const times = judged.filter((cycle) => sameAttempt(cycle, last)).length;
  if (times < 2) return null;
  const action = last.action.content.replace(/\s+/g, " ").slice(0, 120);
  const why = last.judgmentReason ? `: ${last.judgmentReason.slice(0, 200)}` : "";
  return `stalled: \`${action}\` gave the same ${last.judgment} result ${times === 2 ? "twice" : `${times} times`}${why}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * Seed 000's decomposition triggers, on the cycles of the current attempt (`cycles`, one tier's with
 * model tiers); `history` (default: the same) is every cycle of the intention, for the stall rule.
 */
export function shouldDecompose(
  cycles: readonly CycleView[],
  limits: RivaLimits,
  history: readonly CycleView[] = cycles,
): Verdict {
  // A cycle a crash cut off says nothing about the work: it is not a miss, and not an attempt.
  const judged = cycles.filter((cycle) => cycle.judgment !== null && !cycle.interrupted);
  // The test-first cycle is expected to leave its test red: not a miss (it still counts as a cycle).
  const work = judged.filter((cycle) => !cycle.testFirst);
  const failures = work.filter((cycle) => cycle.judgment === "FAILURE").length;
  const partial = work.filter((cycle) => cycle.judgment === "PARTIAL").length;
  const unclear = work.filter((cycle) => cycle.judgment === "UNCLEAR").length;
  if (judged.length >= limits.maxCyclesPerIntention) {
    return { yes: true, reason: `max cycles per intention reached (${limits.maxCyclesPerIntention})` };
  }
  if (failures >= 2) {
    const last = judged.at(-1)?.judgmentReason;
    const stalled = isStalled(judged) ? "; the last two were the same action with the same result" : "";
    return { yes: true, reason: `${failures} failed cycles${last ? ` (last: ${last})` : ""}${stalled}` };
  }
  // Before counting PARTIAL/UNCLEAR results, so a repeated one is named as what it is: a stall.
  const stall = judged.length > 0 ? stallOf(history) : null;
  if (stall) return { yes: true, reason: stall };
  if (partial + unclear >= 2) {
    const parts = [
      partial > 0 ? plural(partial, "partial result") : "",
      unclear > 0 ? plural(unclear, "unclear outcome") : "",
    ];
    return { yes: true, reason: parts.filter(Boolean).join(" and ") };
  }
  const reflection = judged.at(-1)?.reflection ?? "";
  if (REFLECTION_SUGGESTS.test(reflection))
    return { yes: true, reason: "the reflection suggests decomposing" };
  return { yes: false, reason: "retry: no decomposition trigger fired" };
}

/** What went wrong so far, capped (Ralph: a summary of attempts, never the whole history). */
export function failureSummary(cycles: readonly CycleView[], cap = 2_000): string {
  const lines = cycles.map(
    (cycle) =>
      `- \`${cycle.action.content}\` → ${cycle.judgment ?? "no judgment"} (${cycle.judgmentReason ?? "?"})` +
      (cycle.reflection ? `: ${cycle.reflection.replace(/\s+/g, " ").slice(0, 300)}` : ""),
  );
  const text = lines.join("\n");
  return text.length <= cap ? text : `…${text.slice(text.length - cap + 1)}`;
}
