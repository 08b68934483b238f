import picomatch from "picomatch";
import { z } from "zod";
import { displayName } from "@/server/domain/text/display-name";
import { IntentId, IntentStatus } from "@/server/domain/vocabulary/project-intents";
import { normaliseScopePattern } from "@/server/governance/scope";

/**
 * A project's intents as people edit them on the project page (seed 003's `active_intents.yaml`
 * entries). Pure: the zod schemas the router validates with, and the checks that
 * give a clear error for a glob that would not mean what it says or an id used twice.
 */

/** Statuses that are written to the workspace's file: a retired intent can no longer be selected. */
export function isMirrored(status: IntentStatus): boolean {
  return status !== "RETIRED";
}

/**
 * Why an owned_scope glob is refused, or null when it is fine. The scope guard already ignores such
 * patterns (they match nothing); refusing them here tells the person instead of silently owning less.
 */
export function scopeGlobProblem(glob: string): string | null {
  const trimmed = glob.trim();
  if (trimmed === "") return "an owned_scope glob cannot be empty";
  if (normaliseScopePattern(trimmed) === null)
    return `\`${trimmed}\` is not a glob inside the workspace (no \`!\` negation, no \`..\`, no absolute path outside /workspace)`;
  try {
    picomatch.makeRe(trimmed, { dot: true, nonegate: true });
  } catch {
    return `\`${trimmed}\` is not a valid glob`;
  }
  if (/[[{(]/.test(trimmed) && !balanced(trimmed)) return `\`${trimmed}\` has an unclosed bracket or brace`;
  return null;
}

function balanced(glob: string): boolean {
  const pairs: Record<string, string> = { "]": "[", "}": "{", ")": "(" };
  const stack: string[] = [];
  for (const char of glob) {
    if (char === "[" || char === "{" || char === "(") stack.push(char);
    else if (char in pairs && stack.pop() !== pairs[char]) return false;
  }
  return stack.length === 0;
}

export const ScopeGlob = z
  .string()
  .trim()
  .max(300, "An owned_scope glob has at most 300 characters.")
  .superRefine((glob, context) => {
    const problem = scopeGlobProblem(glob);
    if (problem) context.addIssue({ code: "custom", message: `${problem}.` });
  });

const line = (what: string) =>
  z.string().trim().min(1, `A ${what} cannot be empty.`).max(500, `A ${what} has at most 500 characters.`);

/** Everything of an intent but its id (which does not change once made). */
export const IntentFields = z.object({
  name: displayName({ what: "intent name", empty: "Give the intent a name.", max: 200 }),
  status: IntentStatus.default("IN_PROGRESS"),
  ownedScope: z
    .array(ScopeGlob)
    .min(1, "Name at least one owned_scope glob (e.g. src/auth/**): the agent may only write there.")
    .max(50, "An intent has at most 50 owned_scope globs."),
  constraints: z.array(line("constraint")).max(30).default([]),
  acceptanceCriteria: z.array(line("acceptance criterion")).max(30).default([]),
});
export type IntentFields = z.infer<typeof IntentFields>;

export const ProjectIntent = IntentFields.extend({ intentId: IntentId });
export type ProjectIntent = z.infer<typeof ProjectIntent>;

/** A whole list, as a project holds it: each id once. */
export const ProjectIntentList = z.array(ProjectIntent).superRefine((intents, context) => {
  const seen = new Set<string>();
  intents.forEach((intent, index) => {
    if (seen.has(intent.intentId))
      context.addIssue({
        code: "custom",
        path: [index, "intentId"],
        message: `${intent.intentId} is used twice; each intent needs its own id.`,
      });
    seen.add(intent.intentId);
  });
});

/** The next free id in the INT-001 series, so the card can suggest one. */
export function nextIntentId(existing: readonly string[]): string {
  const numbers = existing
    .map((id) => /^INT-(\d+)$/.exec(id)?.[1])
    .filter((digits): digits is string => digits !== undefined)
    .map(Number);
  const next = (numbers.length === 0 ? 0 : Math.max(...numbers)) + 1;
  return `INT-${String(next).padStart(3, "0")}`;
}

/** The JSON-array columns of the ProjectIntent table, read back; anything unreadable is empty. */
export function readList(stored: string): string[] {
  try {
    const parsed = z.array(z.string()).safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
