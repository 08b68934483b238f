import { describeCriterion } from "@/server/domain/contract/criteria";
import { tierNameOfCycle } from "@/server/domain/session/fold-tiers";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import {
  type BuildContextInput,
  type BuiltContext,
  buildContext,
  type IntentionView as ChainLink,
  type FinishedSubtree,
} from "@/server/model/context/build-context";
import type { AttemptView } from "@/server/model/context/failure-summary";
import { squeeze } from "@/server/model/context/text";
import { guardRepairState } from "./guard-step";
import { attemptedAction } from "./tool-action";

/**
 * The act request's context, built fresh from the store (seed 002's Ralph principle): everything the
 * builder needs is read from the folded log — the root → current chain with what people approved on
 * the way, the contract, the intention's earlier attempts (named by the tier that made them), the
 * parts of the run already verified — plus the repository context read from the sandbox for this turn.
 * Pure: the same view and text always give the same request.
 */

/** Root first, the intention itself last; stops at a missing parent instead of looping. */
export function chainOf(view: SessionView, intention: IntentionView): IntentionView[] {
  const chain: IntentionView[] = [intention];
  const seen = new Set([intention.id]);
  let parentId = intention.parentId;
  while (parentId !== null && !seen.has(parentId)) {
    const parent = view.intentions[parentId];
    if (!parent) break;
    chain.unshift(parent);
    seen.add(parent.id);
    parentId = parent.parentId;
  }
  return chain;
}

/**
 * Decisions a person (or the project's auto checkpoint, named as such) approved on an intention: its
 * decomposition, as approved or edited, and its owned scope. These are never dropped from a request.
 */
export function approvedDecisions(view: SessionView, intention: IntentionView): string[] {
  const decisions: string[] = [];
  const children = intention.childIds.map((id) => view.intentions[id]?.what ?? "");
  for (const approval of Object.values(view.approvals)) {
    if (approval.intentionId !== intention.id || approval.kind !== "decomposition") continue;
    if (approval.status !== "APPROVED" || children.length === 0) continue;
    const proposed = approval.children.map((child) => child.what);
    const edited = proposed.join("\n") !== children.join("\n") ? ", edited" : "";
    const why = approval.reason ? ` (${approval.reason})` : "";
    decisions.push(
      `split into ${children.length} parts, approved by ${approval.decidedBy ?? "a person"}${edited}${why}: ${children.join("; ")}`,
    );
  }
  if (intention.scopeApproval && intention.ownedScope.length > 0)
    decisions.push(
      `owned scope ${intention.ownedScope.join(" ")}, approved by ${intention.scopeApproval.approvedBy}`,
    );
  return decisions;
}

/** The intention's judged cycles, oldest first, each named by the tier that made it (when the run has tiers). */
export function attemptsOf(view: SessionView, intention: IntentionView): AttemptView[] {
  const firstTier = view.runs[intention.runId]?.tiers?.tiers[0]?.name ?? null;
  return intention.cycles.flatMap((cycle, index) =>
    cycle.judgment === null
      ? []
      : [
          {
            id: cycle.id,
            cycle: index + 1,
            ...(firstTier === null ? {} : { tier: tierNameOfCycle(intention, index, firstTier) }),
            thought: cycle.thought,
            action: attemptedAction(cycle.action),
            result: cycle.error ?? cycle.output ?? "",
            judgment: cycle.judgment,
            ...(cycle.reflection ? { reflection: cycle.reflection } : {}),
          },
        ],
  );
}

const DETAIL_LINES = 20;

/** What a collapsed subtree's one line leaves out: each part with its last action, for a restore. */
function subtreeDetail(view: SessionView, top: IntentionView): string {
  const lines: string[] = [];
  const walk = (node: IntentionView, depth: number) => {
    const last = node.cycles.at(-1);
    const action = last
      ? ` — last action: ${squeeze(attemptedAction(last.action), 120)} → ${last.judgment ?? "?"}`
      : "";
    lines.push(`${"  ".repeat(depth)}- ${squeeze(node.what, 160)}${action}`);
    for (const id of node.childIds) {
      const child = view.intentions[id];
      if (child) walk(child, depth + 1);
    }
  };
  walk(top, 0);
  const more = lines.length > DETAIL_LINES ? [`(${lines.length - DETAIL_LINES} more parts)`] : [];
  return [...lines.slice(0, DETAIL_LINES), ...more].join("\n");
}

/**
 * The run's verified subtrees in the order the depth-first walk verified them: each the topmost
 * verified intention of its branch (its verified children are inside it, not listed again).
 */
export function finishedSubtreesOf(view: SessionView, intention: IntentionView): FinishedSubtree[] {
  const rootId = view.runs[intention.runId]?.rootId;
  const root = rootId ? view.intentions[rootId] : undefined;
  const finished: FinishedSubtree[] = [];
  const walk = (node: IntentionView) => {
    if (node.id === intention.id) return;
    if (node.status === "VERIFIED") {
      const verifiedBy = node.reason ?? "verified";
      finished.push({ id: node.id, what: node.what, verifiedBy, detail: subtreeDetail(view, node) });
      return;
    }
    for (const id of node.childIds) {
      const child = view.intentions[id];
      if (child) walk(child);
    }
  };
  if (root) walk(root);
  return finished;
}

/** A regression guard's repair cycle of the root: what the guard saw is the reason for this cycle. */
function repairOf(view: SessionView, intention: IntentionView): { whyThisCycle?: string } {
  const run = view.runs[intention.runId];
  const repair = run ? guardRepairState(run, intention) : null;
  return repair?.kind === "due" ? { whyThisCycle: repair.reason } : {};
}

/** SessionView + intention → what the context builder needs (the repository text comes from the sandbox). */
export function actContextInput(
  view: SessionView,
  intention: IntentionView,
  repoContext: string,
): BuildContextInput {
  const intentionChain: ChainLink[] = chainOf(view, intention).map((link) => ({
    id: link.id,
    what: link.what,
    acceptance: link.acceptance,
    decisions: approvedDecisions(view, link),
  }));
  return {
    intentionChain,
    contract: intention.contract.map((criterion) => ({
      kind: criterion.kind,
      description: describeCriterion(criterion),
    })),
    attempts: attemptsOf(view, intention),
    repoContext,
    instructions: view.runs[intention.runId]?.intent?.instructions ?? [],
    finishedSubtrees: finishedSubtreesOf(view, intention),
    restored: intention.restored.map((entry) => ({ id: entry.id, by: entry.by })),
    ...repairOf(view, intention),
  };
}

export function actContext(view: SessionView, intention: IntentionView, repoContext: string): BuiltContext {
  return buildContext(actContextInput(view, intention, repoContext));
}
