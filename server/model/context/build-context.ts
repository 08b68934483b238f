import { instructionsText, type ProjectInstruction } from "@/server/domain/intent/project-instructions";
import { canonicalJson } from "@/server/domain/text/canonical-json";
import { capEnd } from "@/server/domain/text/cap";
import { estimateTokens } from "@/server/domain/text/tokens";
import {
  type AttemptView,
  attemptLabel,
  FAILURE_SUMMARY_LIMITS,
  type FailureSummaryLimits,
  summarizeFailures,
} from "./failure-summary";
import { type CompressionRecord, type CompressionTrigger, type DroppedItem, droppedItem } from "./record";
import {
  attemptVerbatim,
  CONTRACT_ITEM_ID,
  INSTRUCTIONS_ITEM_ID,
  REPO_CONTEXT_ITEM_ID,
  RESTORED_LIMITS,
  type Restorable,
  type RestoredLimits,
  type RestoredRef,
  restoredSection,
} from "./restored-section";
import { flatten, squeeze } from "./text";

/**
 * The Ralph context builder (seed 002, DESIGN "each model call is built fresh from the store"): one
 * prompt body assembled from stored facts, never a growing chat. Everything that grows with the run is
 * bounded here — earlier attempts become a capped summary, finished subtrees one verified line each,
 * the repository context a fixed budget — except the root → current intention chain, which is the
 * point of the request and is never dropped (its depth is bounded by the loop's depth limit).
 */

export interface IntentionView {
  id: string;
  what: string;
  acceptance: string;
  /** Decisions a person approved on this intention (an edited decomposition, a chosen approach). */
  decisions: readonly string[];
}

export interface CriterionView {
  kind: string;
  description: string;
}

export interface FinishedSubtree {
  id: string;
  what: string;
  /** How it was verified, e.g. "`npm test` exited 0". */
  verifiedBy: string;
  /** What the one line leaves out (its parts, their last actions): shown only when restored. */
  detail?: string;
}

export interface ContextLimits extends FailureSummaryLimits, RestoredLimits {
  /** Per field of an intention in the chain: shortened, never removed. */
  intentionFieldChars: number;
  contractChars: number;
  repoContextChars: number;
  /** The project's AGENTS.md / CLAUDE.md: shortened to this, never removed. */
  instructionsChars: number;
  finishedSubtrees: number;
  finishedLineChars: number;
  /** Above this estimate of the uncapped material, the record names the `token_estimate` trigger. */
  maxTokens: number;
}

export const CONTEXT_LIMITS: ContextLimits = {
  ...FAILURE_SUMMARY_LIMITS,
  intentionFieldChars: 1000,
  contractChars: 3000,
  repoContextChars: 6000,
  instructionsChars: 4000,
  // Recent verified siblings only: the root → current chain carries the context that matters, and a
  // long tree must not grow every prompt (bench/prompt-growth.bench.ts holds this to ≤ 1.2×).
  finishedSubtrees: 6,
  finishedLineChars: 160,
  ...RESTORED_LIMITS,
  // The token-estimate trigger: the stored material this request is built from, before any cap.
  maxTokens: 4000,
};

export interface BuildContextInput {
  /** Root first, the intention being worked on last. */
  intentionChain: readonly IntentionView[];
  contract: readonly CriterionView[];
  /** Earlier cycles of the current intention, oldest first. */
  attempts: readonly AttemptView[];
  repoContext: string;
  /** The project's instruction files as discovery read them (issue #21.1), root first. */
  instructions?: readonly ProjectInstruction[];
  /** Verified parts of the tree, oldest first. */
  finishedSubtrees: readonly FinishedSubtree[];
  /** Items people restored on the current intention, oldest first (see restored-section.ts). */
  restored?: readonly RestoredRef[];
  /**
   * Why this cycle runs although the last attempt succeeded (the regression guard's repair: its
   * command, counts and failing test names). Bounded by the decider; capped here again.
   */
  whyThisCycle?: string;
  limits?: Partial<ContextLimits>;
}

export interface BuiltContext {
  body: string;
  tokens: number;
  record: CompressionRecord;
}

function chainSection(
  chain: readonly IntentionView[],
  limits: ContextLimits,
  dropped: DroppedItem[],
): string {
  if (chain.length === 0) return "(no intention: nothing to work on)";
  return chain
    .map((intention, index) => {
      const fields = [intention.what.trim(), intention.acceptance.trim(), intention.decisions.join("; ")];
      if (fields.some((text) => text.length > limits.intentionFieldChars)) {
        dropped.push(
          droppedItem(
            "intention",
            "shortened",
            intention,
            intention.id,
            `intention: ${squeeze(intention.what, 80)}`,
          ),
        );
      }
      const [what = "", acceptance = "", decisions = ""] = fields.map((text) =>
        capEnd(text, limits.intentionFieldChars),
      );
      const marker = index === chain.length - 1 ? " ← current" : "";
      const lines = [`${index + 1}. ${what}${marker}`, `   Acceptance: ${acceptance}`];
      if (decisions !== "") lines.push(`   Approved decisions: ${decisions}`);
      return lines.join("\n");
    })
    .join("\n");
}

function contractSection(contract: readonly CriterionView[], limits: ContextLimits, dropped: DroppedItem[]) {
  if (contract.length === 0) return "(no contract yet)";
  const text = contract
    .map((criterion) => `- [${criterion.kind}] ${flatten(criterion.description)}`)
    .join("\n");
  if (text.length > limits.contractChars)
    dropped.push(
      droppedItem(
        "contract",
        "shortened",
        contract,
        CONTRACT_ITEM_ID,
        `contract (${contract.length} checks)`,
      ),
    );
  return capEnd(text, limits.contractChars);
}

function repoSection(repoContext: string, limits: ContextLimits, dropped: DroppedItem[]): string {
  const text = repoContext.trim();
  if (text === "") return "(nothing known yet)";
  if (text.length > limits.repoContextChars)
    dropped.push(
      droppedItem("repo_context", "shortened", repoContext, REPO_CONTEXT_ITEM_ID, "repository context"),
    );
  return capEnd(text, limits.repoContextChars);
}

/** Like the chain, the project's own rules are never dropped: only shortened, and the record says so. */
function instructionsSection(
  instructions: readonly ProjectInstruction[],
  limits: ContextLimits,
  dropped: DroppedItem[],
): string | null {
  const built = instructionsText(instructions, limits.instructionsChars);
  if (built.text === "") return null;
  if (built.shortened)
    dropped.push(
      droppedItem("instructions", "shortened", instructions, INSTRUCTIONS_ITEM_ID, "project instructions"),
    );
  return built.text;
}

function finishedSection(
  finished: readonly FinishedSubtree[],
  limits: ContextLimits,
  dropped: DroppedItem[],
) {
  if (finished.length === 0) return "(none yet)";
  const shown = finished.slice(-limits.finishedSubtrees);
  const older = finished.slice(0, finished.length - shown.length);
  const drop = (subtree: FinishedSubtree, how: "omitted" | "collapsed") =>
    dropped.push(droppedItem("finished_subtree", how, subtree, subtree.id, `✓ ${squeeze(subtree.what, 80)}`));
  for (const subtree of older) drop(subtree, "omitted");
  for (const subtree of shown) drop(subtree, "collapsed");
  const lines = shown.map((subtree) =>
    squeeze(
      `- ✓ ${flatten(subtree.what)} — verified: ${flatten(subtree.verifiedBy)}`,
      limits.finishedLineChars,
    ),
  );
  return [
    ...(older.length > 0 ? [`- ✓ ${older.length} earlier parts verified (not listed)`] : []),
    ...lines,
  ].join("\n");
}

/** Everything a person can restore from this request, by id, with its full text. */
function restorables(input: BuildContextInput): Map<string, Restorable> {
  const known = new Map<string, Restorable>();
  for (const attempt of input.attempts)
    known.set(attempt.id, { id: attempt.id, label: attemptLabel(attempt), text: attemptVerbatim(attempt) });
  for (const subtree of input.finishedSubtrees) {
    const text = [`${subtree.what}`, `Verified: ${subtree.verifiedBy}`, subtree.detail ?? ""];
    known.set(subtree.id, {
      id: subtree.id,
      label: `✓ ${squeeze(subtree.what, 80)}`,
      text: text.join("\n").trim(),
    });
  }
  for (const intention of input.intentionChain) {
    const decisions =
      intention.decisions.length > 0 ? `\nApproved decisions: ${intention.decisions.join("; ")}` : "";
    const text = `${intention.what}\nAcceptance: ${intention.acceptance}${decisions}`;
    known.set(intention.id, { id: intention.id, label: `intention: ${squeeze(intention.what, 80)}`, text });
  }
  const contract = input.contract.map((criterion) => `- [${criterion.kind}] ${criterion.description}`);
  known.set(CONTRACT_ITEM_ID, { id: CONTRACT_ITEM_ID, label: "contract", text: contract.join("\n") });
  known.set(REPO_CONTEXT_ITEM_ID, {
    id: REPO_CONTEXT_ITEM_ID,
    label: "repository context",
    text: input.repoContext,
  });
  const instructions = instructionsText(input.instructions ?? [], Number.POSITIVE_INFINITY).text;
  if (instructions !== "")
    known.set(INSTRUCTIONS_ITEM_ID, {
      id: INSTRUCTIONS_ITEM_ID,
      label: "project instructions",
      text: instructions,
    });
  return known;
}

/** The uncapped material's size: what a request would cost if nothing were compressed. */
function rawTokens(input: BuildContextInput): number {
  const { limits: _limits, restored: _restored, ...material } = input;
  return estimateTokens(canonicalJson(material));
}

const WHY_THIS_CYCLE_CHARS = 2_000;

export function buildContext(input: BuildContextInput): BuiltContext {
  const limits = { ...CONTEXT_LIMITS, ...input.limits };
  const dropped: DroppedItem[] = [];
  const failures = summarizeFailures(input.attempts, limits);
  const instructions = instructionsSection(input.instructions ?? [], limits, dropped);
  const sections = [
    ...(instructions === null ? [] : [["Project instructions (AGENTS.md / CLAUDE.md)", instructions]]),
    ["Intention chain (root → current)", chainSection(input.intentionChain, limits, dropped)],
    ["Contract: how the current intention is checked", contractSection(input.contract, limits, dropped)],
    ["Repository", repoSection(input.repoContext, limits, dropped)],
    ["Finished and verified", finishedSection(input.finishedSubtrees, limits, dropped)],
    ["Earlier attempts at the current intention", failures.text],
    ...(input.whyThisCycle ? [["Why this cycle", squeeze(input.whyThisCycle, WHY_THIS_CYCLE_CHARS)]] : []),
  ];
  const restored = restoredSection(input.restored ?? [], restorables(input), limits);
  const body = [
    ...sections.map(([title, text]) => `## ${title}\n\n${text}`),
    ...(restored.text === "" ? [] : [restored.text]),
  ].join("\n\n");
  // What a person restored is in the request again: no longer dropped.
  const allDropped = [...dropped, ...failures.dropped].filter(
    (item) => item.id === undefined || !restored.included.has(item.id),
  );
  const triggers: CompressionTrigger[] = [
    ...(allDropped.length > 0 ? (["history_cap"] as const) : []),
    ...(rawTokens(input) > limits.maxTokens ? (["token_estimate"] as const) : []),
  ];
  return {
    body,
    tokens: estimateTokens(body),
    record: { triggers, dropped: allDropped, keptChars: body.length },
  };
}
