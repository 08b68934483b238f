import type { CriterionResult } from "@/server/domain/contract/criteria";
import { describeCriterion } from "@/server/domain/contract/criteria";
import type {
  ApprovalView,
  CycleView,
  IntentionView,
  RunView,
  SessionView,
} from "@/server/domain/session/view";
import { CLI_CONFIG_LABEL, userSettingEntries } from "@/server/domain/settings/user-config";

/**
 * The intention tree as text: the browser's tree, line for line in spirit (the same fold of the same
 * event log): each node's status and what, its cycles (action, exit code, judgment, output) and its
 * checks with their evidence. `arbor run` prints lines as they appear; `arbor history show` the whole.
 */

const INDENT = "  ";

export function actionLabel(action: CycleView["action"]): string {
  if (action.tool === null || action.tool === "shell.exec") return action.content;
  return [action.type, action.tool, action.target ?? ""].filter((word) => word !== "").join(" ");
}

function clip(text: string, max = 400): string {
  const trimmed = text.trimEnd();
  return trimmed.length > max
    ? `${trimmed.slice(0, max)}… (${trimmed.length - max} more characters)`
    : trimmed;
}

function indented(text: string, depth: number): string[] {
  return text.split("\n").map((line) => `${INDENT.repeat(depth)}${line}`);
}

/** One keyed line of the tree: the key says when it is new (run streams print each key once). */
export interface TreeLine {
  key: string;
  text: string;
}

function checkLines(results: CriterionResult[], key: string, depth: number, label: string): TreeLine[] {
  return results.flatMap((result, index) => [
    {
      key: `${key}:${index}`,
      text: indented(
        `${label} ${result.passed ? "✓ passed" : "✗ failed"}: ${describeCriterion(result.criterion)}\n${INDENT}evidence: ${clip(result.evidence, 300)}`,
        depth,
      ).join("\n"),
    },
  ]);
}

function cycleLines(cycle: CycleView, intention: IntentionView, depth: number): TreeLine[] {
  const key = `cycle:${intention.id}:${cycle.index}`;
  const lines: TreeLine[] = [
    { key, text: indented(`cycle ${cycle.index + 1}: ${actionLabel(cycle.action)}`, depth).join("\n") },
  ];
  if (cycle.gate && cycle.gate.decision !== "allow")
    lines.push({
      key: `${key}:gate`,
      text: indented(`gate: ${cycle.gate.decision} (${cycle.gate.reason})`, depth + 1).join("\n"),
    });
  if (cycle.exitCode !== null || cycle.error !== null) {
    const how = cycle.error ? `error: ${cycle.error}` : `exit ${cycle.exitCode}`;
    const time = cycle.durationMs !== null ? ` in ${cycle.durationMs} ms` : "";
    const output = cycle.output?.trim() ? `\n${clip(cycle.output)}` : "";
    lines.push({ key: `${key}:result`, text: indented(`${how}${time}${output}`, depth + 1).join("\n") });
  }
  if (cycle.judgment)
    lines.push({
      key: `${key}:judgment`,
      text: indented(
        `judgment: ${cycle.judgment}${cycle.judgedBy ? ` (${cycle.judgedBy})` : ""}${cycle.judgmentReason ? `: ${cycle.judgmentReason}` : ""}`,
        depth + 1,
      ).join("\n"),
    });
  if (cycle.checks) lines.push(...checkLines(cycle.checks, `${key}:checks`, depth + 1, "check"));
  return lines;
}

function intentionLines(view: SessionView, intention: IntentionView, depth: number): TreeLine[] {
  const status =
    intention.status === "VERIFIED" && intention.evidence
      ? `VERIFIED, ${intention.evidence}`
      : intention.status;
  const lines: TreeLine[] = [
    {
      key: `intention:${intention.id}:${intention.status}`,
      text: indented(
        `[${status}] ${intention.what}${intention.reason ? ` — ${intention.reason}` : ""}`,
        depth,
      ).join("\n"),
    },
  ];
  if (intention.baseline)
    lines.push(
      ...checkLines(
        intention.baseline.results.map((entry) => entry.result),
        `baseline:${intention.id}`,
        depth + 1,
        "before the work, check",
      ),
    );
  for (const cycle of intention.cycles) lines.push(...cycleLines(cycle, intention, depth + 1));
  for (const childId of intention.childIds) {
    const child = view.intentions[childId];
    if (child) lines.push(...intentionLines(view, child, depth + 1));
  }
  if (intention.integrationChecks)
    lines.push(
      ...checkLines(
        intention.integrationChecks,
        `integration:${intention.id}`,
        depth + 1,
        "integration check",
      ),
    );
  return lines;
}

/** A run's lines: its header, its tree, and (once it ended) its status. */
export function runLines(view: SessionView, run: RunView): TreeLine[] {
  const lines: TreeLine[] = [{ key: `run:${run.id}`, text: `Run ${run.id} (${run.mode}): ${run.task}` }];
  lines.push(...cliConfigLines(run));
  const root = run.rootId ? view.intentions[run.rootId] : undefined;
  if (root) lines.push(...intentionLines(view, root, 1));
  // The regression guard (the project's tests before any work and after it): it can stop a VERIFIED.
  if (run.guard?.before)
    lines.push(
      ...checkLines([run.guard.before], `guard:${run.id}:before`, 2, "regression guard, before the work:"),
    );
  // Each run after the work in order; a repair cycle between a regression and the next run.
  for (const [index, after] of (run.guard?.afters ?? []).entries()) {
    const label =
      index === 0 ? "regression guard, after the work:" : "regression guard, after the repair cycle:";
    lines.push(...checkLines([after], `guard:${run.id}:after${index === 0 ? "" : `:${index}`}`, 2, label));
    const repair = run.guard?.repairs[index];
    if (repair)
      lines.push({
        key: `guard:${run.id}:repair:${index}`,
        text: indented(`repair cycle: ${clip(repair.reason, 300)}`, 2).join("\n"),
      });
  }
  for (const message of view.messages)
    if (message.runId === run.id && message.role !== "user")
      lines.push({
        key: `message:${message.id}`,
        text: indented(`${message.role}: ${clip(message.text, 2_000)}`, 1).join("\n"),
      });
  if (run.status !== "RUNNING")
    lines.push({ key: `end:${run.id}`, text: `Run ${run.status}${run.reason ? `: ${run.reason}` : ""}` });
  return lines;
}

/** Where the run's settings came from: what the CLI user file sent with it set, and what it ignored. */
export function cliConfigLines(run: RunView): TreeLine[] {
  if (!run.cliConfig) return [];
  const set = userSettingEntries(run.cliConfig.settings).map(([key, value]) => `${key} = ${value}`);
  return [
    {
      key: `cli:${run.id}`,
      text: indented(`settings from ${CLI_CONFIG_LABEL}: ${set.join("; ")}`, 1).join("\n"),
    },
    ...run.cliConfig.ignored.map((row) => ({
      key: `cli:${run.id}:${row.key}`,
      text: indented(`! ${row.key} = ${row.value} is ignored: ${row.reason}`, 1).join("\n"),
    })),
  ];
}

/** The whole session as text, every run in order. */
export function sessionText(view: SessionView): string {
  return view.runOrder
    .map((runId) => view.runs[runId])
    .filter((run): run is RunView => run !== undefined)
    .map((run) =>
      runLines(view, run)
        .map((line) => line.text)
        .join("\n"),
    )
    .join("\n\n");
}

/** The approvals of a run that wait for an answer, oldest first. */
export function pendingApprovals(view: SessionView, runId: string): ApprovalView[] {
  return Object.values(view.approvals)
    .filter((approval) => approval.runId === runId && approval.status === "PENDING")
    .sort((a, b) => a.requestedSeq - b.requestedSeq);
}

/** What a waiting approval asks, for the terminal. */
export function describeApproval(approval: ApprovalView): string {
  const lines = [`Approval ${approval.id} (${approval.kind}) waits for you.`];
  if (approval.thought) lines.push(`  why: ${clip(approval.thought, 600)}`);
  if (approval.command) lines.push(`  command: ${approval.command}`);
  if (approval.call)
    lines.push(`  call: ${approval.call.tool} ${clip(JSON.stringify(approval.call.input), 600)}`);
  for (const [index, child] of approval.children.entries())
    lines.push(`  ${index + 1}. ${child.what}${child.acceptance ? ` (done when: ${child.acceptance})` : ""}`);
  if (approval.gateReason) lines.push(`  asked because: ${approval.gateReason}`);
  return lines.join("\n");
}
