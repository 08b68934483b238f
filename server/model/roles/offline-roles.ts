import type { CriticInput, LibrarianInput, Ranking, Review } from "./types";

/**
 * Full mode's roles without a model (the offline model, a test double, or a model that failed):
 * deterministic and modest. The Librarian ranks paths by the intention's words; the Critic only
 * catches a change that cannot be right (an empty file, an edit that changes nothing); Chaos writes
 * no test (a heuristic cannot know what would break the code).
 */

const STOP_WORDS = new Set(["the", "and", "for", "with", "that", "this", "from", "into", "file", "files"]);
const MAX_RANKED = 8;

function wordsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9_.-]{3,}/g) ?? [];
  return [...new Set(words.filter((word) => !STOP_WORDS.has(word)))];
}

export function rankFilesOffline(input: Pick<LibrarianInput, "what" | "acceptance" | "files">): Ranking {
  const words = wordsOf(`${input.what} ${input.acceptance}`);
  const scored = input.files
    .map((path) => {
      const lower = path.toLowerCase();
      const base = lower.split("/").at(-1) ?? lower;
      const hits = words.filter((word) => lower.includes(word));
      // A word naming the file itself counts more than one naming a folder on its way.
      const score = hits.reduce((sum, word) => sum + (base.includes(word) ? 2 : 1), 0);
      return { path, hits, score };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
    .slice(0, MAX_RANKED);
  return {
    files: scored.map((entry) => ({ path: entry.path, why: `its path matches ${entry.hits.join(", ")}` })),
    summary:
      scored.length > 0
        ? `${scored.length} file${scored.length === 1 ? "" : "s"} whose path matches the intention's words`
        : "no file's path matches the intention's words",
  };
}

/** `change` as the Critic reads it: `fs.write` carries the new content, `fs.edit` its search/replace. */
export function critiqueOffline(input: Pick<CriticInput, "action" | "change">): Review {
  const [tool] = input.action.split(" ");
  if (tool === "fs.write" && input.change.trim() === "")
    return { verdict: "revise", issues: ["the change writes an empty file"], summary: "an empty file" };
  if (tool === "fs.edit" && /^no change$/m.test(input.change))
    return { verdict: "revise", issues: ["the edit replaces a text with itself"], summary: "a no-op edit" };
  return { verdict: "approve", issues: [], summary: "no problem the offline heuristics can see" };
}
