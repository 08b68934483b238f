import { type CriterionResult, describeCriterion } from "@/server/domain/contract/criteria";
import type { ApprovalView, IntentionView, SessionView } from "@/server/domain/session/view";
import { EVIDENCE_LABELS } from "@/server/domain/vocabulary/session";

/**
 * The pull request Arbor opens for a session's pushed branch (issue #21.3), built from the session's
 * log alone: its tree of intentions, each check with its evidence before and after the work (red →
 * green), the approvals and who gave them, and a link to the replay. Pure: the same view always gives
 * the same request, and a unit test pins it.
 */

export interface PullRequestRequest {
  title: string;
  head: string;
  base: string;
  body: string;
  draft: boolean;
}

/** GitHub refuses a body over 65,536 characters; what is cut is said so. */
const MAX_BODY = 60_000;
const MAX_EVIDENCE = 1_500;
const MAX_TITLE = 200;

/** A code block that no backtick run inside `text` can close. */
function fenced(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function capped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

function verdict(result: CriterionResult | undefined): string {
  if (!result) return "not run";
  if (result.couldNotRun) return "could not run";
  return result.passed ? "green" : "red";
}

/** The checks as they stood last: at integration, else after the last cycle that checked them. */
function finalChecks(intention: IntentionView): CriterionResult[] | null {
  if (intention.integrationChecks) return intention.integrationChecks;
  const checked = intention.cycles.filter((cycle) => cycle.checks !== null);
  return checked.at(-1)?.checks ?? null;
}

function treeLines(view: SessionView, id: string, depth: number): string[] {
  const intention = view.intentions[id];
  if (!intention) return [];
  const evidence = intention.evidence ? ` — ${EVIDENCE_LABELS[intention.evidence]}` : "";
  const by = intention.acceptedBy ? ` (${intention.acceptedBy})` : "";
  const line = `${"  ".repeat(depth)}- **${intention.status}** ${oneLine(intention.what)}${evidence}${by}`;
  return [line, ...intention.childIds.flatMap((child) => treeLines(view, child, depth + 1))];
}

function checkSection(intention: IntentionView): string[] {
  const after = finalChecks(intention);
  if (intention.contract.length === 0 || !after) return [];
  const before = new Map(intention.baseline?.results.map((entry) => [entry.index, entry.result]) ?? []);
  const lines = [`#### ${oneLine(intention.what)}`];
  intention.contract.forEach((criterion, index) => {
    const was = before.get(index);
    const now = after[index];
    lines.push(`- ${describeCriterion(criterion)}: ${verdict(was)} → ${verdict(now)}`);
    if (was?.evidence)
      lines.push("", "  Before:", "", indent(fenced(capped(was.evidence, MAX_EVIDENCE))), "");
    if (now?.evidence) lines.push("", "  After:", "", indent(fenced(capped(now.evidence, MAX_EVIDENCE))), "");
  });
  return lines;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

function approvalLine(approval: ApprovalView): string {
  const what = approval.command ?? approval.call?.tool ?? approval.kind;
  const who = approval.decidedById === "auto" ? "the auto checkpoint" : (approval.decidedBy ?? "nobody");
  const reason = approval.reason ? ` — “${oneLine(approval.reason)}”` : "";
  return `- ${approval.status.toLowerCase()} by ${who}: ${approval.kind} \`${oneLine(what).replace(/`/g, "'")}\`${reason}`;
}

export function pullRequestBody(view: SessionView, replayUrl: string): string {
  const roots = view.runOrder.map((runId) => view.runs[runId]).filter((run) => run?.rootId);
  const intentions = roots.flatMap((run) => collect(view, run?.rootId ?? ""));
  const decided = Object.values(view.approvals)
    .filter((approval) => approval.status !== "PENDING")
    .sort((a, b) => a.requestedSeq - b.requestedSeq);
  const sections = [
    "Opened by Arbor from a session.",
    "",
    "### Tree",
    "",
    ...(roots.length ? roots.flatMap((run) => treeLines(view, run?.rootId ?? "", 0)) : ["(no runs)"]),
    "",
    "### Checks",
    "",
    ...(intentions.flatMap(checkSection).length ? intentions.flatMap(checkSection) : ["(no checks ran)"]),
    "",
    "### Approvals",
    "",
    ...(decided.length ? decided.map(approvalLine) : ["(none asked)"]),
    "",
    `### Replay`,
    "",
    `[The session's replay](${replayUrl})`,
  ];
  const body = sections.join("\n");
  return body.length <= MAX_BODY
    ? body
    : `${body.slice(0, MAX_BODY)}\n\n… (cut: the whole session is in [the replay](${replayUrl}))`;
}

function collect(view: SessionView, id: string): IntentionView[] {
  const intention = view.intentions[id];
  if (!intention) return [];
  return [intention, ...intention.childIds.flatMap((child) => collect(view, child))];
}

export function pullRequestRequest(input: {
  view: SessionView;
  title: string;
  head: string;
  base: string;
  replayUrl: string;
}): PullRequestRequest {
  return {
    title: oneLine(input.title).slice(0, MAX_TITLE) || "Arbor session",
    head: input.head,
    base: input.base,
    body: pullRequestBody(input.view, input.replayUrl),
    draft: false,
  };
}
