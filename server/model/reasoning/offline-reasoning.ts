import { capLine } from "@/server/domain/text/cap";
import type { NextAction } from "@/server/model/actions";
import { splitTask } from "../heuristics/split-task";

/**
 * The built-in offline model's reasoning (seed 001 §4 without a language model): the warmup's six
 * sections and a cycle's short reflection, written from the same heuristics that plan and act, so the
 * reasoning switch shows something true about what the offline model will do, and says plainly that
 * it is heuristics.
 */

const MAX_LINE = 300;

/** Backticked names that look like files or folders, for the Research section. */
function namedPaths(task: string): string[] {
  const spans = [...task.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? "");
  return [...new Set(spans.filter((span) => /^[\w./-]+$/.test(span) && /[./]/.test(span)))].slice(0, 6);
}

/** `firstAction`: what the heuristics will do for the first step (the offline model's own choice). */
export function offlineWarmupText(task: string, firstAction: NextAction, repoSummary?: string): string {
  const steps = splitTask(task);
  const first = steps[0] ?? task;
  const paths = namedPaths(task);
  const research = [
    paths.length > 0 ? `the files the request names (${paths.map((p) => `\`${p}\``).join(", ")})` : null,
    repoSummary?.trim()
      ? `the workspace as discovered: ${capLine(repoSummary.split("\n")[0] ?? "", MAX_LINE)}`
      : null,
  ].filter((part) => part !== null);
  const plan =
    steps.length > 1
      ? steps.map((step, index) => `${index + 1}. ${capLine(step, MAX_LINE)}`).join("; ")
      : `work it directly: ${capLine(first, MAX_LINE)}`;
  const action = `${firstAction.tool} ${target(firstAction)} for "${capLine(first, MAX_LINE)}"`;
  return [
    "<ide_reasoning>",
    `- **Analyze**: the request is "${capLine(task, MAX_LINE)}"; the heuristics read it as ${steps.length} step${steps.length === 1 ? "" : "s"}.`,
    `- **Research**: ${research.length > 0 ? research.join("; ") : "nothing named to inspect; the steps say what to run"}.`,
    `- **Plan**: ${plan}.`,
    "- **Reflect**: built-in offline model (heuristics, no language model): it does only what the words say; commands and file changes may wait for your approval.",
    `- **Action**: ${action}.`,
    "- **Delivery**: NEEDS_WORK",
    "</ide_reasoning>",
    steps.length > 1
      ? `I will propose these ${steps.length} steps for your approval, then work them in order.`
      : "I will work this step directly.",
  ].join("\n");
}

function target(action: NextAction): string {
  const { command, path } = action.input as { command?: unknown; path?: unknown };
  if (typeof command === "string") return `\`${command}\``;
  return typeof path === "string" ? `\`${path}\`` : "";
}

/** A cycle's reflection (3–8 bullets): what the last attempt taught, what comes next and why. */
export function offlineReflectionText(
  what: string,
  previousAttempts: readonly string[],
  action: NextAction,
): string {
  const last = previousAttempts.at(-1);
  return [
    "<ide_reasoning>",
    last
      ? `- **Plan delta**: attempt ${previousAttempts.length + 1} at "${capLine(what, MAX_LINE)}"; the last one ended ${capLine(last, MAX_LINE)}.`
      : `- **Plan delta**: first attempt at "${capLine(what, MAX_LINE)}"; the plan stands.`,
    `- **Next action**: ${action.tool} ${target(action)}, because ${capLine(action.thought, MAX_LINE)}`.trimEnd(),
    last
      ? "- **Known risks**: the heuristics are deterministic, so the same step may fail the same way; a repeat leads to a split."
      : "- **Known risks**: the step may need your approval before it runs.",
    "- **Delivery**: NEEDS_WORK",
    "</ide_reasoning>",
  ].join("\n");
}
