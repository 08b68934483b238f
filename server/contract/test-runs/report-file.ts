import { createHash } from "node:crypto";
import {
  detectTestRunners,
  handsOff,
  packageScriptOf,
  quoteAssignment,
  REPORT_FORMAT,
  type ReportFormat,
  runnerOfWords,
  simplePart,
  type TestCommandHints,
  wordsOf,
} from "@/server/domain/contract/test-command";
import type { TestRunner } from "@/server/domain/contract/test-results";
import { shellQuote } from "@/server/domain/text/shell-quote";

/**
 * The report-file form of a test command: the runner's reporter writing to a file whose path is a hash
 * of the command (so the command a card shows is what runs). Arbor's own checks use the stdout form
 * (server/domain/contract/check-run.ts), which needs no file and no hash.
 */

/** What a test command runs, and what runs in its place. */
export interface TestCommandPlan {
  /** The runners whose output the command may show, most likely first (several: an unknown npm script). */
  runners: TestRunner[];
  /** The exact command that runs: the original, or it with a reporter added. The check shows this. */
  command: string;
  /** Where the reporter writes, when one was added; read after the run, then removed. */
  report: { path: string; format: ReportFormat } | null;
}

/** A report path that is the same for the same command (so the command a card shows is what runs). */
export function reportPathFor(command: string, format: ReportFormat): string {
  const id = createHash("sha256").update(command).digest("hex").slice(0, 12);
  const extension = {
    "jest-json": "json",
    tap: "tap",
    "junit-xml": "xml",
    "go-json": "jsonl",
    "rspec-json": "json",
  };
  return `/tmp/arbor-test-report-${id}.${extension[format]}`;
}
/** The reporter's own words for a runner writing to `path`; the human output stays on stdout. */
function reporterArgs(runner: TestRunner, path: string, args: readonly string[]): string[] {
  switch (runner) {
    case "vitest":
      return ["--reporter=default", "--reporter=json", `--outputFile.json=${path}`];
    case "jest":
      // Jest keeps its human output on stderr and writes only the JSON to the file.
      return ["--json", `--outputFile=${path}`];
    case "node-test":
      return [
        "--test-reporter=spec",
        "--test-reporter-destination=stdout",
        "--test-reporter=tap",
        `--test-reporter-destination=${path}`,
      ];
    case "pytest":
      return [`--junitxml=${path}`];
    case "rspec": {
      // Naming a format drops RSpec's default one, so progress is named too unless the user chose one.
      const chosen = args.some((arg) => arg === "-f" || arg.startsWith("--format"));
      return [...(chosen ? [] : ["--format", "progress"]), "--format", "json", "--out", path];
    }
    case "go":
      return ["-json"];
    case "cargo":
      return [];
  }
}
/**
 * The command with a reporter writing to `path`, or null when the runner has none or the command is
 * not one this can change safely (compound, redirected, expanded, or already choosing a reporter).
 */
export function withReporter(command: string, runner: TestRunner, path: string): string | null {
  const part = simplePart(command);
  if (!part || !REPORT_FORMAT[runner]) return null;
  const words = wordsOf(part);
  if (runnerOfWords(words) !== runner) return null;
  const args = words.slice(1);
  if (handsOff(runner, args)) return null;
  const extra = reporterArgs(runner, path, args);
  if (runner === "node-test" || runner === "go") {
    // node takes options only before its first file argument, and `go test -json` prints to stdout:
    // the options go right after the program (and `test`), and go's events into the report file.
    const at = words.findIndex((word) => (runner === "go" ? word === "test" : /(^|\/)node$/.test(word)));
    const rebuilt = [...words.slice(0, at + 1), ...extra, ...words.slice(at + 1)];
    const line = [...part.assignments.map((word) => quoteAssignment(word.text)), ...rebuilt.map(shellQuote)];
    return `${line.join(" ")}${runner === "go" ? ` > ${path}` : ""}`;
  }
  return `${command.trimEnd()} ${extra.join(" ")}`;
}

/**
 * A package script (`npm test`) with a reporter: npm appends the words after `--` to the script, which
 * is safe only when the script is itself one simple runner command that takes options at its end.
 * node's options must come before its files, so a `node --test` script qualifies only without files.
 */
function scriptWithReporter(
  command: string,
  script: string,
  runner: TestRunner,
  path: string,
): string | null {
  const part = simplePart(command);
  const scriptPart = simplePart(script);
  if (!part || !scriptPart || packageScriptOf(wordsOf(part))?.manager !== "npm") return null;
  const scriptArgs = wordsOf(scriptPart).slice(1);
  const passed = wordsOf(part).slice(wordsOf(part).indexOf("--") + 1);
  const hasSeparator = wordsOf(part).includes("--");
  const forwarded = [...scriptArgs, ...(hasSeparator ? passed : [])];
  if (!["vitest", "jest", "pytest", "node-test"].includes(runner) || !withReporter(script, runner, path))
    return null;
  if (handsOff(runner, forwarded)) return null;
  if (runner === "node-test" && !forwarded.every((arg) => arg.startsWith("-"))) return null;
  const extra = reporterArgs(runner, path, forwarded);
  return `${command.trimEnd()}${hasSeparator ? "" : " --"} ${extra.join(" ")}`;
}

/**
 * The runnable form of a test check's command: what will run and where its report lands. This is the
 * command a check shows and its binding hashes; the same inputs always give the same plan.
 */
export function planTestCommand(command: string, hints: TestCommandHints = {}): TestCommandPlan {
  const runners = detectTestRunners(command, hints);
  const [runner] = runners;
  const format = runner ? REPORT_FORMAT[runner] : null;
  if (!runner || !format || runners.length !== 1) return { runners, command, report: null };
  const path = reportPathFor(command, format);
  const part = simplePart(command);
  const direct = part !== null && runnerOfWords(wordsOf(part)) !== null;
  const runnable = direct
    ? withReporter(command, runner, path)
    : hints.script
      ? scriptWithReporter(command, hints.script, runner, path)
      : null;
  return runnable
    ? { runners, command: runnable, report: { path, format } }
    : { runners, command, report: null };
}
