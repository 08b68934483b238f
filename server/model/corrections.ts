import type { CorrectionKind } from "@/server/domain/events/bodies/reasoning";
import { capEnd } from "@/server/domain/text/cap";
import { fillTemplate, loadPrompt, type PromptOptions } from "./prompts";
import { ROLE_PROMPTS } from "./roles/role-prompts";

/**
 * Recovery without changing mode (seed 001 §10, seed 004 §7): each way a model answer goes wrong has
 * its own correction prompt file, sent as the extra instruction of the retry. A correction never
 * touches the request's mode, stage or tools; it only tells the model what was wrong and what to do.
 */

export interface CorrectionNote {
  kind: CorrectionKind;
  /** The prompt file the correction was rendered from. */
  prompt: string;
  /** What went wrong, as the model was told (capped). */
  problem: string;
}

/** Each kind's prompt file and the variables it must use, no more, no less (checked at startup). */
export const CORRECTION_PROMPTS: Record<CorrectionKind, { prompt: string; variables: readonly string[] }> = {
  "empty-response": { prompt: "correct-empty-response", variables: ["tools"] },
  "asks-for-files": { prompt: "correct-asks-for-files", variables: ["request", "tools"] },
  "invalid-tool-call": { prompt: "correct-tool-call", variables: ["problem", "tools"] },
  "failed-tool": { prompt: "correct-failed-tool", variables: ["tool", "error"] },
};

const MAX_PROBLEM_CHARS = 2_000;

/** Text outside any `<ide_reasoning>` block: a reflection alone is not an answer. */
export function withoutReasoning(text: string): string {
  return text.replace(/<ide_reasoning>[\s\S]*?(<\/ide_reasoning>|$)/g, "").trim();
}

/**
 * A model asking the person to paste or share files, diffs or output it could read with its tools.
 * Kept to requests (a verb of handing over near a thing to hand over), so prose that merely mentions
 * a file is not taken for one.
 */
const ASKS_FOR_FILES = [
  /\b(paste|share|send|provide|upload|attach|show me)\b[^.?!\n]{0,80}\b(files?|contents?|diffs?|code|output|logs?|source)\b/i,
  /\b(could|can|would) you\b[^.?!\n]{0,40}\b(paste|share|send|provide|upload|attach)\b/i,
];

export function asksForFiles(text: string): boolean {
  return ASKS_FOR_FILES.some((pattern) => pattern.test(text));
}

/** Which correction an unusable answer gets: nothing at all, a request for files, or a bad call. */
export function classifyAnswer(answer: { calls: readonly unknown[]; text: string }): CorrectionKind {
  if (answer.calls.length > 0) return "invalid-tool-call";
  const said = withoutReasoning(answer.text);
  if (said === "") return "empty-response";
  return asksForFiles(said) ? "asks-for-files" : "invalid-tool-call";
}

export interface RenderedCorrection {
  note: CorrectionNote;
  /** The instruction sent with the retry. */
  message: string;
}

/** The correction for an unusable answer: `problem` is what the interpreter found wrong. */
export function correctAnswer(
  answer: { calls: readonly unknown[]; text: string },
  problem: string,
  tools: string,
  options: PromptOptions = {},
): RenderedCorrection {
  const kind = classifyAnswer(answer);
  const vars: Record<string, string> =
    kind === "empty-response"
      ? { tools }
      : kind === "asks-for-files"
        ? { tools, request: capEnd(withoutReasoning(answer.text).trim(), 300) }
        : { problem, tools };
  return render(kind, vars, problem, options);
}

/** The correction for the retry after a tool (the previous attempt's action) failed. */
export function correctFailedTool(
  failed: { tool: string; error: string },
  options: PromptOptions = {},
): RenderedCorrection {
  const error = capEnd(failed.error.trim(), 1_000);
  return render("failed-tool", { tool: failed.tool, error }, `${failed.tool} failed: ${error}`, options);
}

function render(
  kind: CorrectionKind,
  vars: Record<string, string>,
  problem: string,
  options: PromptOptions,
): RenderedCorrection {
  const { prompt } = CORRECTION_PROMPTS[kind];
  const message = fillTemplate(prompt, loadPrompt(prompt, options), vars);
  return { note: { kind, prompt, problem: capEnd(problem.trim(), MAX_PROBLEM_CHARS) }, message };
}

/**
 * Renders every correction prompt (and full mode's role prompts) with placeholder values for exactly its declared variables, so a
 * missing file, an unknown `{{variable}}` or a declared one the file dropped stops the server at
 * startup instead of surfacing in the middle of a run.
 */
export function checkCorrectionPrompts(options: PromptOptions = {}): void {
  // The compact reasoning outcome's section is rendered with each request of a run with reasoning on.
  const outcome = { prompt: "reasoning-outcome", variables: ["outcome"] };
  for (const { prompt, variables } of [...Object.values(CORRECTION_PROMPTS), outcome, ...ROLE_PROMPTS]) {
    const sample = Object.fromEntries(variables.map((name) => [name, `<${name}>`]));
    fillTemplate(prompt, loadPrompt(prompt, options), sample);
  }
}
