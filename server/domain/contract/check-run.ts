import type { TestRunner } from "@/server/domain/contract/test-results";
import type { CommandPart } from "@/server/domain/shell/split";
import { shellQuote } from "@/server/domain/text/shell-quote";
import {
  detectTestRunners,
  handsOff,
  packageScriptName,
  packageScriptOf,
  quoteAssignment,
  REPORT_FORMAT,
  type ReportFormat,
  runnerOfWords,
  simplePart,
  wordsOf,
} from "./test-command";

/**
 * The command a test check Arbor runs itself actually runs (issue #15 items 1 and 4): the check's
 * command with the runner's machine-readable reporter added, printing on standard output, so there is
 * no report file to read back (and no second command through the door). Pure and deterministic: the
 * decomposition card, the check's own card and the binding hash all see exactly this text.
 *
 * Fail-closed: when the runner is not known for certain (an `npm test` whose script is not read, or
 * is not one simple runner command), the command is compound or redirected, or it already chooses its
 * own output, the command runs as written; then its closing summary lines are read, as before.
 */

/** What discovery read from the workspace: package.json's `scripts.test` and the test framework. */
export interface CheckTestHints {
  testScript?: string | null | undefined;
  framework?: string | null | undefined;
  /** Run every command exactly as written: the intention is itself that command ("run `pytest`"). */
  asWritten?: boolean | undefined;
}

export interface CheckRun {
  /** The exact command that runs: what the cards show and the approval's hash binds. */
  command: string;
  /** The runners whose output it may show, most likely first. */
  runners: TestRunner[];
  /** The machine-readable report it prints on standard output, when it prints one. */
  report: ReportFormat | null;
}

/** The reporter's words; the human output stays where it was, beside the report, except node's and go's. */
function stdoutArgs(runner: TestRunner): string[] {
  switch (runner) {
    case "vitest":
      return ["--reporter=default", "--reporter=json"];
    case "jest":
      // The JSON goes to stdout, jest's human output to stderr.
      return ["--json"];
    case "node-test":
      return ["--test-reporter=tap"];
    case "pytest":
      return ["--junitxml=/dev/stdout"];
    case "go":
      return ["-json"];
    case "rspec":
      // Naming a format drops RSpec's default one: progress keeps its closing line for the fallback.
      return ["--format", "progress", "--format", "json"];
    case "cargo":
      return [];
  }
}

/** The command already prints a report this can read on stdout: it runs as written. */
function alreadyReporting(runner: TestRunner, args: readonly string[]): boolean {
  const has = (flag: string) => args.some((arg) => arg === flag || arg.startsWith(`${flag}=`));
  switch (runner) {
    case "node-test":
      return (
        args.filter((arg) => arg.startsWith("--test-reporter=")).length === 1 &&
        args.includes("--test-reporter=tap") &&
        !has("--test-reporter-destination")
      );
    case "go":
      return args.includes("-json") && !has("-o") && !has("-c");
    case "jest":
      return args.includes("--json") && !has("--outputFile");
    default:
      return false;
  }
}

function chooses(runner: TestRunner, args: readonly string[]): boolean {
  if (handsOff(runner, args)) return true;
  return runner === "rspec" && args.some((arg) => arg === "-f" || arg.startsWith("--format"));
}

/**
 * A runner's own command with the reporter. node's options go before its files: right after `--test`
 * (which takes no value), so an allow-list entry `node --test` still matches; go's right after `test`.
 */
function directForm(command: string, part: CommandPart, runner: TestRunner): string | null {
  const words = wordsOf(part);
  if (chooses(runner, words.slice(1))) return null;
  const extra = stdoutArgs(runner);
  if (runner === "node-test" || runner === "go") {
    const at = words.findIndex((word) => word === (runner === "go" ? "test" : "--test"));
    if (at < 0) return null;
    const rebuilt = [...words.slice(0, at + 1), ...extra, ...words.slice(at + 1)];
    return [...part.assignments.map((word) => quoteAssignment(word.text)), ...rebuilt.map(shellQuote)].join(
      " ",
    );
  }
  return `${command.trimEnd()} ${extra.join(" ")}`;
}

/**
 * `npm test` whose script is one simple runner command: npm appends the words after `--` to it. node
 * takes options only before its files, so a `node --test` script qualifies only without files.
 */
function scriptForm(
  command: string,
  part: CommandPart,
  script: string,
  runner: TestRunner,
): { command: string; asWritten: boolean } | null {
  if (packageScriptOf(wordsOf(part))?.manager !== "npm") return null;
  if (!["vitest", "jest", "pytest", "node-test"].includes(runner)) return null;
  const scriptPart = simplePart(script);
  if (!scriptPart || runnerOfWords(wordsOf(scriptPart)) !== runner) return null;
  const words = wordsOf(part);
  const separator = words.indexOf("--");
  const forwarded = [...wordsOf(scriptPart).slice(1), ...(separator >= 0 ? words.slice(separator + 1) : [])];
  if (alreadyReporting(runner, forwarded)) return { command, asWritten: true };
  if (chooses(runner, forwarded)) return null;
  if (runner === "node-test" && !forwarded.every((arg) => arg.startsWith("-"))) return null;
  const extra = stdoutArgs(runner).join(" ");
  return { command: `${command.trimEnd()}${separator >= 0 ? "" : " --"} ${extra}`, asWritten: false };
}

/** The command a test check runs, with the report it prints; the same inputs always give the same run. */
export function checkRunOf(command: string, hints: CheckTestHints = {}): CheckRun {
  // Discovery read package.json's `test` script only: another script's text is not known.
  const script = packageScriptName(command) === "test" ? (hints.testScript ?? null) : null;
  const runners = detectTestRunners(command, { script, framework: hints.framework ?? null });
  const plain: CheckRun = { command, runners, report: null };
  if (hints.asWritten) return plain;
  const [runner] = runners;
  const format = runner ? REPORT_FORMAT[runner] : null;
  const part = simplePart(command);
  if (!runner || !format || runners.length !== 1 || !part) return plain;
  const words = wordsOf(part);
  if (runnerOfWords(words) === runner) {
    if (alreadyReporting(runner, words.slice(1))) return { command, runners, report: format };
    const formed = directForm(command, part, runner);
    return formed ? { command: formed, runners, report: format } : plain;
  }
  const scripted = script ? scriptForm(command, part, script, runner) : null;
  return scripted ? { command: scripted.command, runners, report: format } : plain;
}
