import type { TestRunner } from "@/server/domain/contract/test-results";
import { type CommandPart, splitShellCommand } from "@/server/domain/shell/split";
import { shellQuote } from "@/server/domain/text/shell-quote";

/**
 * Which test runner a command runs, read from its words: the facts both reporter forms share (the
 * stdout form, check-run.ts; the report-file form, server/contract/test-runs/report-file.ts). Pure: a
 * package script's text (what `npm test` delegates to) is passed in by the caller that read package.json.
 */

/** The report's format, which decides its parser. */
export type ReportFormat = "jest-json" | "tap" | "junit-xml" | "go-json" | "rspec-json";

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
export function quoteAssignment(text: string): string {
  const at = text.indexOf("=");
  return `${text.slice(0, at + 1)}${shellQuote(text.slice(at + 1))}`;
}
/** The package.json script a command delegates to (`npm test` → "test"), for the caller to read. */
export function packageScriptName(command: string): string | null {
  const part = simplePart(command);
  return part ? (packageScriptOf(wordsOf(part))?.script ?? null) : null;
}
