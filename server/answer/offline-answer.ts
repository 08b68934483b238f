/**
 * The answer path on the built-in offline model, which has no language ability: it cannot answer a
 * question, so it says so and shows what its heuristics can do — search the workspace for the
 * question's own words — labelled as exactly that. Pure: the runner runs the searches.
 */

const STOP_WORDS = new Set(
  "about above after again also because been before being below between both does doing during each from further have having here into itself just more most once only other over same should some such than that their them then there these they this those through under until very what when where which while whom with would your yours could tell explain describe show file files code project".split(
    " ",
  ),
);

/** Up to three distinctive words of the question (4+ letters, not filler), in order of appearance. */
export function questionKeywords(question: string): string[] {
  const words = question.toLowerCase().match(/[a-z_][a-z0-9_.-]{3,}/g) ?? [];
  const distinct = [...new Set(words.map((word) => word.replace(/[.-]+$/, "")))];
  return distinct.filter((word) => word.length >= 4 && !STOP_WORDS.has(word)).slice(0, 3);
}

export interface OfflineFinding {
  /** A keyword searched for, or null for the plain listing. */
  keyword: string | null;
  /** Matching files (search) or entries (listing), already capped. */
  files: string[];
  failed: string | null;
}

/** Distinct file paths of fs.search's matches (its typed data), in the order found. */
export function filesFromSearch(matches: readonly { path: string }[]): string[] {
  return [...new Set(matches.map((match) => match.path))];
}

const SHOWN_FILES = 10;

export const OFFLINE_ANSWER_HEADING = "Built-in offline model — not a real answer.";

export function offlineAnswerText(findings: readonly OfflineFinding[]): string {
  const lines = [
    OFFLINE_ANSWER_HEADING,
    "It has no language ability, so it cannot read or explain code. Here is what its heuristics found in the workspace:",
    "",
  ];
  for (const finding of findings) {
    const what =
      finding.keyword === null ? "Files in the workspace" : `Files mentioning "${finding.keyword}"`;
    if (finding.failed) lines.push(`- ${what}: could not look (${finding.failed})`);
    else if (finding.files.length === 0) lines.push(`- ${what}: none`);
    else {
      const more =
        finding.files.length > SHOWN_FILES ? `, and ${finding.files.length - SHOWN_FILES} more` : "";
      lines.push(`- ${what}: ${finding.files.slice(0, SHOWN_FILES).join(", ")}${more}`);
    }
  }
  lines.push("", "Configure a model (the project's Model settings) to get real answers.");
  return lines.join("\n");
}
