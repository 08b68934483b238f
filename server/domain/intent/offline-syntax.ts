import { firstLineSummary } from "@/server/domain/text/fit-text";

/**
 * What the built-in offline model understands (issue #17.3), in its own syntax: it has no language
 * ability, only seed 000's heuristics, which read commands and file names in backticks. The task box
 * shows these as clickable examples while the offline model is the one answering, and a request it
 * cannot read is answered at once with this text instead of cycles that cannot succeed.
 */

const SHOWN_STEPS = 5;

/** Clickable examples, one per heuristic rule family. */
export const OFFLINE_EXAMPLES: readonly { task: string; does: string }[] = [
  { task: "run `npm test`", does: "runs the command in backticks" },
  { task: "create `notes.txt` containing `hello`", does: "writes a file" },
  { task: "replace `a - b` with `a + b` in `sum.js`", does: "edits a file" },
  { task: "delete `old.txt`", does: "removes a file" },
  { task: "run `ls -la` and then run `git log --oneline`", does: "splits into steps, each verified" },
];

/** The steps the offline model could not read, with what it can do and how to get a real model. */
export function offlineCannotReadText(steps: readonly string[]): string {
  const quoted = steps.slice(0, SHOWN_STEPS).map((step) => `- "${firstLineSummary(step, 120).line}"`);
  if (steps.length > SHOWN_STEPS) quoted.push(`- and ${steps.length - SHOWN_STEPS} more`);
  return [
    "The built-in offline model cannot read this request, so nothing was run.",
    "It has no language ability: it follows fixed rules and needs commands and file names in backticks.",
    "",
    "It could not find an instruction in:",
    ...quoted,
    "",
    "What it understands:",
    ...OFFLINE_EXAMPLES.map((example) => `- ${example.task}  (${example.does})`),
    "",
    "For plain-English tasks, configure a model: open the project's Model settings, choose a provider, " +
      "and set its base URL, model name and API key (or set ARBOR_MODEL_BASE_URL on the server).",
  ].join("\n");
}
