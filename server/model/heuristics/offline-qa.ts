import type { QaFinding, QaReport, QaVerdict } from "@/server/domain/events/bodies/qa";
import { QA_MAX_FINDINGS } from "@/server/domain/events/bodies/qa";
import type { QaInput, ReadPort } from "../types";

/**
 * The built-in offline model's advisory review: no language ability, so it reports what can be seen
 * mechanically — how the intention ended, whether its contract checked anything, how many attempts it
 * took, and markers left in the diff (TODO/FIXME, debug prints). Pure: the diff and status texts come
 * from read-only tool calls the caller made through the dispatch.
 */

const MARKERS: { pattern: RegExp; message: string; suggestion: string }[] = [
  {
    pattern: /\b(TODO|FIXME|XXX)\b/,
    message: "an added line leaves a TODO/FIXME marker",
    suggestion: "finish it or open an issue for it",
  },
  {
    pattern: /\bconsole\.log\(|\bdebugger\b|^\s*print\(/,
    message: "an added line looks like a debug print",
    suggestion: "remove it before saving the work",
  },
];

/** Added lines of a unified diff, each with the file it belongs to. */
export function addedLines(diff: string): { file: string; line: string }[] {
  const lines: { file: string; line: string }[] = [];
  let file = "";
  for (const raw of diff.split("\n")) {
    const header = /^\+\+\+ (?:b\/)?(.+)$/.exec(raw);
    if (header) {
      file = header[1] === "/dev/null" ? "" : (header[1] ?? "");
      continue;
    }
    if (raw.startsWith("+") && !raw.startsWith("+++")) lines.push({ file, line: raw.slice(1) });
  }
  return lines;
}

function verdictOf(findings: readonly QaFinding[]): QaVerdict {
  if (findings.some((finding) => finding.severity === "high")) return "fail";
  if (findings.some((finding) => finding.severity === "medium" || finding.severity === "low"))
    return "concerns";
  return "pass";
}

export function reviewOffline(input: QaInput, diff: string): QaReport {
  const findings: QaFinding[] = [];
  if (input.outcome.startsWith("FAILED")) {
    findings.push({
      severity: "high",
      file: null,
      message: `the intention did not verify: ${input.outcome.slice(0, 600)}`,
      suggestion: "read the last attempt's result before trying again",
    });
  }
  if (input.criteria.total === 0) {
    findings.push({
      severity: "info",
      file: null,
      message: "the acceptance names nothing the contract checker can verify; only exit codes judged this",
      suggestion:
        "state a checkable acceptance (a file that exists or contains text, a command that exits 0)",
    });
  } else if (input.criteria.passed < input.criteria.total) {
    findings.push({
      severity: "medium",
      file: null,
      message: `${input.criteria.total - input.criteria.passed} of ${input.criteria.total} contract criteria did not pass when last checked`,
      suggestion: "check the gap before relying on this result",
    });
  }
  if (input.attempts.missed > 0) {
    findings.push({
      severity: "info",
      file: null,
      message: `${input.attempts.missed} of ${input.attempts.total} attempts missed before the last one`,
      suggestion: null,
    });
  }
  const seen = new Set<string>();
  for (const { file, line } of addedLines(diff)) {
    for (const marker of MARKERS) {
      const key = `${file}\u0000${marker.message}`;
      if (!marker.pattern.test(line) || seen.has(key)) continue;
      seen.add(key);
      findings.push({
        severity: "low",
        file: file || null,
        message: marker.message,
        suggestion: marker.suggestion,
      });
    }
  }
  const kept = findings.slice(0, QA_MAX_FINDINGS);
  const verdict = verdictOf(kept);
  const counted = kept.filter((finding) => finding.severity !== "info").length;
  const summary =
    verdict === "pass"
      ? `Built-in offline review: nothing to flag in "${input.what.slice(0, 200)}" (${kept.length} notes).`
      : `Built-in offline review: ${counted} finding${counted === 1 ? "" : "s"} in "${input.what.slice(0, 200)}".`;
  return { verdict, summary, findings: kept };
}

/** New files (untracked) read per review: enough to catch a marker, bounded so a review stays cheap. */
const MAX_NEW_FILES = 3;

/**
 * What the offline review reads, through the read-only port: the unstaged diff, plus up to three new
 * (untracked) files as if every line were added — git's diff does not show a file it does not track.
 */
export async function offlineReviewDiff(reads: ReadPort): Promise<string> {
  const diff = await reads.run({ tool: "git.diff", input: {} });
  const status = await reads.run({ tool: "git.status", input: {} });
  const untracked = status
    .split("\n")
    .map((line) => /^\?\? (.+)$/.exec(line)?.[1]?.trim())
    .filter((file): file is string => file !== undefined && !file.endsWith("/"))
    .slice(0, MAX_NEW_FILES);
  const parts = [diff.startsWith("(") ? "" : diff];
  for (const file of untracked) {
    const text = await reads.run({ tool: "fs.read", input: { path: file } });
    // fs.read numbers its lines ("   1\ttext"); the numbers are not part of the file.
    const body = text
      .split("\n")
      .map((line) => `+${line.replace(/^ *\d+\t/, "")}`)
      .join("\n");
    parts.push(`+++ b/${file}\n${body}`);
  }
  return parts.filter((part) => part !== "").join("\n");
}
