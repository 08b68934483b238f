import { createHash } from "node:crypto";
import type { TestRunner } from "@/server/domain/contract/test-results";
import { shellQuote } from "@/server/domain/text/shell-quote";
import { type CommandPart, splitShellCommand } from "@/server/policy/approval/shell-split";

/**
 * Which test runner a command runs, and the same command with a machine-readable reporter added where
 * the runner allows it without changing what it tests. Pure: a package script's text (what `npm test`
 * delegates to) is passed in by the caller that read package.json.
 */

/** The report's format, which decides its parser. */
export type ReportFormat = "jest-json" | "tap" | "junit-xml" | "go-json" | "rspec-json";

/** What a test command runs, and what runs in its place. */
export interface TestCommandPlan {
  /** The runners whose output the command may show, most likely first (several: an unknown npm script). */
  runners: TestRunner[];
  /** The exact command that runs: the original, or it with a reporter added. The check shows this. */
  command: string;
  /** Where the reporter writes, when one was added; read after the run, then removed. */
  report: { path: string; format: ReportFormat } | null;
}

/** What a caller knows besides the command: the package script it names, and the discovered framework. */
export interface TestCommandHints {
  /** The text of the package.json script the command runs (`npm test` → scripts.test), when read. */
  script?: string | null;
  /** The codebase's test framework as discovery named it ("vitest", "pytest", "npm test script", …). */
  framework?: string | null;
}

const JS_RUNNERS: TestRunner[] = ["vitest", "jest", "node-test"];

const FRAMEWORK_RUNNERS: Record<string, TestRunner[]> = {
  vitest: ["vitest"],
  jest: ["jest"],
  pytest: ["pytest"],
  "go test": ["go"],
  "cargo test": ["cargo"],
  rspec: ["rspec"],
};

/** Launchers that run the next word as the program: `npx vitest`, `python3 -m pytest`, `bundle exec rspec`. */
function withoutLauncher(words: readonly string[]): string[] {
  const [first = "", second = "", third = ""] = words;
  const name = first.split("/").pop() ?? first;
  if (name === "npx" || name === "bunx") {
    const rest = words.slice(1);
    const at = rest.findIndex((word) => !word.startsWith("-"));
    return at < 0 ? [] : rest.slice(at);
  }
  if ((name === "pnpm" || name === "yarn") && (second === "exec" || second === "dlx")) return words.slice(2);
  if (["uv", "poetry", "pipenv", "bundle"].includes(name) && (second === "run" || second === "exec"))
    return words.slice(2);
  if (/^python(\d+(\.\d+)?)?$/.test(name) && second === "-m") return [third, ...words.slice(3)];
  return [...words];
}

/** The runner a single command's words run, after its launcher, or null. */
export function runnerOfWords(words: readonly string[]): TestRunner | null {
  const [program = "", ...args] = withoutLauncher(words);
  const name = program.split("/").pop() ?? "";
  if (name === "vitest") return "vitest";
  if (name === "jest") return "jest";
  if (name === "pytest" || name === "py.test") return "pytest";
  // `node script.js --test` passes --test to the script: node's own options come before its files.
  const firstFile = args.findIndex((arg) => !arg.startsWith("-"));
  const nodeOptions = firstFile < 0 ? args : args.slice(0, firstFile);
  if (name === "node" && nodeOptions.includes("--test")) return "node-test";
  if (name === "go" && args[0] === "test") return "go";
  if (name === "cargo" && args[0] === "test") return "cargo";
  if (name === "rspec") return "rspec";
  return null;
}

/** `npm test`, `npm run test:unit`, `pnpm test`, `yarn test`: the package manager and the script's name. */
export function packageScriptOf(words: readonly string[]): { manager: string; script: string } | null {
  const [program = "", verb = "", name = ""] = words;
  const manager = program.split("/").pop() ?? "";
  if (!["npm", "pnpm", "yarn"].includes(manager)) return null;
  if (["test", "t", "tst"].includes(verb)) return { manager, script: "test" };
  if ((verb === "run" || verb === "run-script") && /^test\b/.test(name)) return { manager, script: name };
  return null;
}

/** The command's single simple part, when it is one (no `&&`, pipes, redirections or expansions). */
export function simplePart(command: string): CommandPart | null {
  const split = splitShellCommand(command);
  if (!split.ok || split.parts.length !== 1 || split.constructs.length > 0) return null;
  const [part] = split.parts;
  if (part?.origin !== "command" || part.redirections.length > 0) return null;
  if (![...part.words, ...part.assignments].every((word) => word.literal)) return null;
  return part;
}

export function wordsOf(part: CommandPart): string[] {
  return part.words.map((word) => word.text);
}

/** Runners the command runs, most likely first; empty when it is not a recognised test command. */
export function detectTestRunners(command: string, hints: TestCommandHints = {}): TestRunner[] {
  const split = splitShellCommand(command);
  if (!split.ok) return [];
  for (const part of split.parts) {
    const words = wordsOf(part);
    const runner = runnerOfWords(words);
    if (runner) return [runner];
    if (packageScriptOf(words)) {
      const scripted = hints.script ? detectTestRunners(hints.script) : [];
      if (scripted.length > 0) return scripted;
      return FRAMEWORK_RUNNERS[hints.framework ?? ""] ?? JS_RUNNERS;
    }
  }
  return [];
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

/** The machine-readable report each runner can give (shared by the file and stdout forms). */
export const REPORT_FORMAT: Record<TestRunner, ReportFormat | null> = {
  vitest: "jest-json",
  jest: "jest-json",
  "node-test": "tap",
  pytest: "junit-xml",
  go: "go-json",
  rspec: "rspec-json",
  // Stable cargo has no machine-readable test output (`--format json` needs nightly).
  cargo: null,
};

/** Options after which an added reporter would fight the user's own, or not apply (watch modes). */
const HANDS_OFF: Record<TestRunner, readonly string[]> = {
  vitest: ["--reporter", "--outputFile", "--watch", "-w", "watch", "dev", "bench", "list", "--ui", "--"],
  jest: ["--json", "--outputFile", "--watch", "--watchAll", "--listTests", "--"],
  "node-test": ["--test-reporter", "--test-reporter-destination", "--watch", "--"],
  pytest: ["--junitxml", "--junit-xml", "--co", "--collect-only", "--"],
  go: ["-json", "-c", "-o", "-exec", "--"],
  rspec: ["--out", "-o", "--dry-run", "--"],
  cargo: [],
};

export function handsOff(runner: TestRunner, args: readonly string[]): boolean {
  return args.some((arg) =>
    HANDS_OFF[runner].some(
      (flag) => arg === flag || arg.startsWith(`${flag}=`) || arg.startsWith(`${flag}.`),
    ),
  );
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

export function quoteAssignment(text: string): string {
  const at = text.indexOf("=");
  return `${text.slice(0, at + 1)}${shellQuote(text.slice(at + 1))}`;
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

/** The package.json script a command delegates to (`npm test` → "test"), for the caller to read. */
export function packageScriptName(command: string): string | null {
  const part = simplePart(command);
  return part ? (packageScriptOf(wordsOf(part))?.script ?? null) : null;
}
