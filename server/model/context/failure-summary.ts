import { capEnd } from "@/server/domain/text/cap";
import type { Judgment } from "@/server/domain/vocabulary/session";
import { type DroppedItem, droppedItem } from "./record";
import { flatten, squeeze } from "./text";

/**
 * Capped failure summaries (seed 002): what earlier cycles of this intention tried, in a size that
 * does not depend on how many there were. Each tier shows its latest few attempts in full-ish lines
 * and counts the rest; one tier's block is capped at 2000 characters and all tiers together at 4000.
 */

export interface AttemptView {
  id: string;
  cycle: number;
  /** The model tier that made the attempt; attempts without one count as one unnamed tier. */
  tier?: string;
  thought?: string;
  action: string;
  result: string;
  judgment: Judgment;
  reflection?: string;
}

export interface FailureSummaryLimits {
  /** Latest attempts of the current tier shown one per line. */
  recentAttempts: number;
  /** Latest attempts of each earlier tier shown one per line. */
  recentAttemptsEarlierTier: number;
  attemptLineChars: number;
  tierSummaryChars: number;
  failureSummaryChars: number;
}

export const FAILURE_SUMMARY_LIMITS: FailureSummaryLimits = {
  recentAttempts: 6,
  recentAttemptsEarlierTier: 2,
  attemptLineChars: 300,
  tierSummaryChars: 2000,
  failureSummaryChars: 4000,
};

export interface FailureSummary {
  text: string;
  dropped: DroppedItem[];
}

const UNNAMED_TIER = "(default tier)";

/**
 * One attempt as one line. It counts as shortened only when its action, result or lesson lost text;
 * the thought is never shown (the action says what was done), so leaving it out is not news.
 */
function attemptLine(attempt: AttemptView, max: number): { line: string; shortened: boolean } {
  const reflection = attempt.reflection ? ` Lesson: ${attempt.reflection}` : "";
  const action = squeeze(attempt.action, 100) || "(no action)";
  const result = squeeze(attempt.result, 160) || "(no output)";
  const full = `#${attempt.cycle} ${attempt.judgment}: ${action} → ${result}.${reflection}`;
  const line = squeeze(full, max);
  const cut =
    action !== (flatten(attempt.action) || "(no action)") ||
    result !== (flatten(attempt.result) || "(no output)") ||
    line !== flatten(full);
  return { line, shortened: cut };
}

/** How the UI names an attempt: "attempt 3: fs.edit src/a.ts → FAILURE". */
export function attemptLabel(attempt: AttemptView): string {
  return `attempt ${attempt.cycle}: ${squeeze(attempt.action, 80) || "(no action)"} → ${attempt.judgment}`;
}

const dropAttempt = (attempt: AttemptView, how: "omitted" | "shortened") =>
  droppedItem("attempt", how, attempt, attempt.id, attemptLabel(attempt));

/** A count line whose length barely changes between 10 and 10 000 attempts. */
function countLine(omitted: readonly AttemptView[]): string {
  if (omitted.length === 0) return "";
  const byJudgment = new Map<string, number>();
  for (const attempt of omitted)
    byJudgment.set(attempt.judgment, (byJudgment.get(attempt.judgment) ?? 0) + 1);
  const counts = [...byJudgment.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([judgment, count]) => `${count} ${judgment}`)
    .join(", ");
  const distinct = new Set(omitted.map((attempt) => attempt.action.trim())).size;
  return `Earlier: ${omitted.length} attempts not shown (${counts}); ${distinct} distinct actions tried.`;
}

function tierBlock(
  tier: string,
  attempts: readonly AttemptView[],
  shown: number,
  limits: FailureSummaryLimits,
) {
  const recent = attempts.slice(-shown);
  const omitted = attempts.slice(0, attempts.length - recent.length);
  const lines = recent.map((attempt) => attemptLine(attempt, limits.attemptLineChars));
  const whole = `Tier ${tier}:\n${[countLine(omitted), ...lines.map((entry) => entry.line)].filter(Boolean).join("\n")}`;
  // A block cut at the tier cap may have cut any of its lines: all of them count as shortened then.
  const blockCut = whole.length > limits.tierSummaryChars;
  const dropped = [
    ...omitted.map((attempt) => dropAttempt(attempt, "omitted")),
    ...recent.flatMap((attempt, index) =>
      blockCut || lines[index]?.shortened ? [dropAttempt(attempt, "shortened")] : [],
    ),
  ];
  return { text: capEnd(whole, limits.tierSummaryChars), dropped };
}

export function summarizeFailures(
  attempts: readonly AttemptView[],
  limits: FailureSummaryLimits = FAILURE_SUMMARY_LIMITS,
): FailureSummary {
  if (attempts.length === 0) return { text: "None: this is the first attempt.", dropped: [] };
  const tiers = new Map<string, AttemptView[]>();
  for (const attempt of attempts) {
    const tier = attempt.tier ?? UNNAMED_TIER;
    const list = tiers.get(tier);
    if (list) list.push(attempt);
    else tiers.set(tier, [attempt]);
  }
  const current = attempts.at(-1)?.tier ?? UNNAMED_TIER;
  const currentBlock = tierBlock(current, tiers.get(current) ?? [], limits.recentAttempts, limits);
  const blocks = [currentBlock.text];
  const dropped = [...currentBlock.dropped];
  let used = currentBlock.text.length;
  // Earlier tiers, newest first: when the 4000-character budget runs out, the oldest tiers go.
  const earlier = [...tiers.keys()].filter((tier) => tier !== current).reverse();
  let full = false;
  for (const tier of earlier) {
    const tierAttempts = tiers.get(tier) ?? [];
    const block = tierBlock(tier, tierAttempts, limits.recentAttemptsEarlierTier, limits);
    // Once one tier does not fit, older ones are left out too, so the summary has no gaps in time.
    full ||= used + 2 + block.text.length > limits.failureSummaryChars;
    if (!full) {
      blocks.push(block.text);
      dropped.push(...block.dropped);
      used += 2 + block.text.length;
    } else {
      dropped.push(...tierAttempts.map((attempt) => dropAttempt(attempt, "omitted")));
    }
  }
  return { text: capEnd(blocks.join("\n\n"), limits.failureSummaryChars), dropped };
}
