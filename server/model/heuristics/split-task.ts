import { explicitCommand } from "./code-spans";
import { deriveFileAction } from "./derive-file-action";

/**
 * Seed 000's `can_verify_directly` heuristics, pure: a request with compound structure ("and",
 * "then", "also", ";", lists, several lines) is not verified directly but split into its steps; one
 * over 200 characters with no such markers is split into its sentences.
 */

export const MIN_CHILDREN = 2;
export const MAX_CHILDREN = 5;
const LONG_TASK_CHARS = 200;

// Backticked spans are commands or names: never split inside them, so hide them behind placeholders.
const CODE_SPAN = /```[\s\S]*?```|`[^`\n]*`/g;
const PLACEHOLDER = /\uE000(\d+)\uE000/g;

function maskCode(text: string): { masked: string; restore: (part: string) => string } {
  const spans: string[] = [];
  const masked = text.replace(CODE_SPAN, (span) => `\uE000${spans.push(span) - 1}\uE000`);
  const restore = (part: string) =>
    part.replace(PLACEHOLDER, (_, index: string) => spans[Number(index)] ?? "");
  return { masked, restore };
}

const LIST_ITEM = /^\s*(?:\d+[.)]|[-*•])\s+/;
const SEPARATORS =
  /\n+|;|,\s*(?:and\s+)?then\s+|,\s*also\s+|\s+and\s+then\s+|\s+then\s+|\s+and\s+also\s+|\s+also\s+|\s+and\s+/i;
const LEADING_CONNECTIVE =
  /^(?:and|then|also|next|finally|after that|afterwards|first|second|third)\b[,:]?\s*/i;

function clean(part: string): string {
  let text = part.trim();
  for (let previous = ""; previous !== text; ) {
    previous = text;
    text = text.replace(LEADING_CONNECTIVE, "").trim();
  }
  return text.replace(/[\s.,;:]+$/, "").trim();
}

function wordCount(part: string): number {
  return part.split(/\s+/).filter(Boolean).length;
}

/** A fragment like "bar" in "test foo and bar" is part of its neighbour, not a step of its own. */
function isStep(part: string): boolean {
  return wordCount(part) >= 2 || part.includes("\uE000");
}

function splitOnSeparators(masked: string): string[] {
  const pieces = masked.split(new RegExp(SEPARATORS.source, "gi"));
  const steps: string[] = [];
  for (const piece of pieces) {
    const part = clean(piece);
    if (part === "") continue;
    const last = steps.length - 1;
    if (last >= 0 && !isStep(part)) steps[last] = `${steps[last]} and ${part}`;
    else steps.push(part);
  }
  if (steps.length > 1 && !isStep(steps[0] ?? "")) {
    const [first, second, ...rest] = steps;
    return [`${first} and ${second}`, ...rest];
  }
  return steps;
}

function splitListItems(masked: string): string[] | undefined {
  const lines = masked.split("\n").filter((line) => line.trim() !== "");
  const items = lines.filter((line) => LIST_ITEM.test(line));
  if (items.length < MIN_CHILDREN) return undefined;
  // A preamble such as "Please do this:" introduces the list and is not a step itself.
  const others = lines.filter((line) => !LIST_ITEM.test(line) && !line.trim().endsWith(":"));
  return [...others, ...items].map((line) => clean(line.replace(LIST_ITEM, ""))).filter(Boolean);
}

/** Sentence ends: ".", "!" or "?" followed by a capital or a code span ("a.txt is" does not end one). */
function splitSentences(masked: string): string[] {
  return masked
    .split(/(?<=[.!?])\s+(?=[A-Z\uE000])/)
    .map(clean)
    .filter(Boolean);
}

/** More than five parts: keep four and merge the rest, which a later plan() splits again. */
function capParts(parts: string[]): string[] {
  if (parts.length <= MAX_CHILDREN) return parts;
  return [...parts.slice(0, MAX_CHILDREN - 1), parts.slice(MAX_CHILDREN - 1).join("; ")];
}

/** Splits a task into its steps; one element means the task is a single, directly verifiable step. */
export function splitTask(task: string): string[] {
  const { masked, restore } = maskCode(task.trim());
  if (masked === "") return [];
  let parts = splitListItems(masked) ?? splitOnSeparators(masked);
  if (parts.length < MIN_CHILDREN && masked.length > LONG_TASK_CHARS) parts = splitSentences(masked);
  return capParts(parts.map(restore).map((part) => part.trim()));
}

// "create a new file `notes.txt` …" names the file the step must leave behind.
const FILE_TARGET =
  /\b(?:create|write|make|add)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+|empty\s+)?file\s+(?:named\s+|called\s+)?[`'"]?([\w./-]+)/i;

/** Acceptance derived from the step itself, so the auto-judge has something concrete to check. */
export function deriveAcceptance(step: string): string {
  const fileAction = deriveFileAction(step);
  if (fileAction?.acceptance) return fileAction.acceptance;
  const file = FILE_TARGET.exec(step)?.[1];
  if (file) return `the file \`${file}\` exists`;
  const command = explicitCommand(step);
  if (command) return `the command \`${command}\` exits 0`;
  return "the step completes without error";
}
