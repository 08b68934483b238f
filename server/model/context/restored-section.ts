import { capEnd } from "@/server/domain/text/cap";
import type { AttemptView } from "./failure-summary";
import { flatten } from "./text";

/**
 * Items a person restored after a compression left them out (the Restore button on an intention):
 * each is put back verbatim, capped per item, under "Restored by <user>" in every later request of
 * that intention. An id the current request does not know any more is ignored with a note, so a stale
 * restore never breaks a request.
 */

/** A restore as the log records it: which item, and who asked for it back. */
export interface RestoredRef {
  id: string;
  by: string;
}

/** Ids of the items that have no id of their own. */
export const CONTRACT_ITEM_ID = "contract";
export const REPO_CONTEXT_ITEM_ID = "repo-context";
/** The project's instruction files (AGENTS.md / CLAUDE.md), shortened to their budget when long. */
export const INSTRUCTIONS_ITEM_ID = "instructions";

export interface RestoredLimits {
  /** Characters of one restored item. */
  restoredItemChars: number;
  /** Restored items included (the latest ones); older restores are noted, not included. */
  restoredItems: number;
}

export const RESTORED_LIMITS: RestoredLimits = { restoredItemChars: 2000, restoredItems: 8 };

export function attemptVerbatim(attempt: AttemptView): string {
  return [
    `Attempt #${attempt.cycle}${attempt.tier ? ` (tier ${attempt.tier})` : ""}: ${attempt.judgment}`,
    ...(attempt.thought ? [`Thought: ${flatten(attempt.thought)}`] : []),
    `Action: ${attempt.action}`,
    `Result:\n${attempt.result || "(no output)"}`,
    ...(attempt.reflection ? [`Lesson: ${attempt.reflection}`] : []),
  ].join("\n");
}

/** One restorable item: its id, what the UI calls it, and its full text. */
export interface Restorable {
  id: string;
  label: string;
  text: string;
}

export interface RestoredSection {
  /** Empty when nothing was restored. */
  text: string;
  /** Ids actually put back: they are no longer listed as dropped. */
  included: Set<string>;
}

export function restoredSection(
  refs: readonly RestoredRef[],
  known: ReadonlyMap<string, Restorable>,
  limits: RestoredLimits,
): RestoredSection {
  const included = new Set<string>();
  if (refs.length === 0) return { text: "", included };
  const latest = [...new Map(refs.map((ref) => [ref.id, ref])).values()];
  const kept = latest.slice(-limits.restoredItems);
  const notes =
    latest.length > kept.length ? [`(${latest.length - kept.length} older restores not included)`] : [];
  const byUser = new Map<string, string[]>();
  for (const ref of kept) {
    const item = known.get(ref.id);
    if (!item) {
      notes.push(`(restored item ${ref.id} by ${ref.by} no longer exists: ignored)`);
      continue;
    }
    included.add(ref.id);
    const block = `### ${item.label}\n\n${capEnd(item.text, limits.restoredItemChars)}`;
    byUser.set(ref.by, [...(byUser.get(ref.by) ?? []), block]);
  }
  const sections = [...byUser.entries()].map(
    ([by, blocks]) => `## Restored by ${by} (in full, as a person asked)\n\n${blocks.join("\n\n")}`,
  );
  if (notes.length > 0) sections.push(`## Restores not included\n\n${notes.join("\n")}`);
  return { text: sections.join("\n\n"), included };
}
