import { projectInstructionsOf } from "@/server/domain/intent/discovered-intent";
import type { DeliveryState } from "@/server/domain/policy/reasoning-outcome";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import type { DeliveryAnswer, DeliveryCheckInput } from "@/server/model/delivery/types";

/**
 * The pure half of the delivery check (seed 001 §2.5, stage `delivery_check`): what the model is
 * shown of the run — the request, each intention's status with its verified-by (or failed-because)
 * line, the QA verdicts — and how its answer meets the gate. The engine's side is `perform/delivery.ts`.
 */

/** Lines of the tree the check reads, and what each may say: the request stays small however big the tree. */
export const MAX_OUTCOME_LINES = 30;
const MAX_LINE_CHARS = 300;
const MAX_QA_LINES = 6;

function line(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= MAX_LINE_CHARS ? flat : `${flat.slice(0, MAX_LINE_CHARS - 1)}…`;
}

/** The run's tree, root first, depth first: one line per intention, capped at MAX_OUTCOME_LINES. */
function outcomeLines(view: SessionView, root: IntentionView): string[] {
  const lines: string[] = [];
  const visit = (node: IntentionView, depth: number) => {
    if (lines.length >= MAX_OUTCOME_LINES) return;
    const why = node.reason ? ` — ${node.reason}` : "";
    lines.push(`${"  ".repeat(Math.min(depth, 4))}${node.status}: ${line(`${node.what}${why}`)}`);
    for (const childId of node.childIds) {
      const child = view.intentions[childId];
      if (child) visit(child, depth + 1);
    }
  };
  visit(root, 0);
  const total = Object.values(view.intentions).filter((node) => node.runId === root.runId).length;
  if (total > lines.length) lines.push(`… and ${total - lines.length} more intentions`);
  return lines;
}

/** The latest QA verdict of each reviewed intention of the run, newest first. */
function qaLines(view: SessionView, root: IntentionView): string[] {
  return Object.values(view.intentions)
    .filter((node) => node.runId === root.runId)
    .flatMap((node) => {
      const latest = node.qaReports.at(-1);
      return latest?.report ? [{ seq: latest.seq, node, report: latest.report }] : [];
    })
    .sort((a, b) => b.seq - a.seq)
    .slice(0, MAX_QA_LINES)
    .map(({ node, report }) => line(`${report.verdict} on "${node.what.slice(0, 120)}": ${report.summary}`));
}

export function deliveryInputFor(
  view: SessionView,
  root: IntentionView,
): Omit<DeliveryCheckInput, "request"> {
  const instructions = projectInstructionsOf(view.runs[root.runId]?.intent);
  return {
    task: root.what,
    rootStatus: root.status,
    outcome: outcomeLines(view, root),
    qa: qaLines(view, root),
    ...(instructions === "" ? {} : { instructions }),
  };
}

/**
 * What the check's answer reports into the gate. Verification is authoritative for DONE: a model
 * saying DONE about a root that did not verify is recorded as NEEDS_WORK, with its own answer kept
 * next to it (`modelState`); a model saying NEEDS_WORK about a verified root is recorded as it said
 * — the gate, already DONE by the verification, does not move (DONE is terminal), and the delivery
 * line shows the disagreement rather than hiding it.
 */
export function deliveryVerdict(
  rootStatus: string,
  answer: DeliveryAnswer,
): { state: DeliveryState; reason: string; modelState: DeliveryState; missing: string[] } {
  const overruled = answer.state === "DONE" && rootStatus !== "VERIFIED";
  return {
    state: overruled ? "NEEDS_WORK" : answer.state,
    reason: overruled
      ? `The model judged it delivered, but the request did not verify (${rootStatus}): ${answer.reason}`
      : answer.reason,
    modelState: answer.state,
    missing: answer.missing,
  };
}
