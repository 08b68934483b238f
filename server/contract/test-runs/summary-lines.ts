import { type TestResults, type TestRunner, testResults } from "@/server/domain/contract/test-results";
import { parseGoJson } from "./parse-go-json";
import { parseTap } from "./parse-tap";

/**
 * The fallback when no report could be added or read: each runner's human closing lines, as the
 * runner prints them today (samples in ./samples). A runner whose output has no such line gives null,
 * and the exit code alone decides, as before.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are control characters.
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

function lastMatch(text: string, pattern: RegExp): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  for (const match of text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`)))
    last = match as RegExpExecArray;
  return last;
}

/** "1 failed | 2 passed | 1 skipped" or "1 failed, 2 passed": each count by its word. */
function countsByWord(line: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of line.matchAll(/(\d+) ([a-z]+)/g)) {
    const word = match[2] ?? "";
    counts.set(word, (counts.get(word) ?? 0) + Number(match[1]));
  }
  return counts;
}

function sum(counts: Map<string, number>, ...words: string[]): number {
  return words.reduce((total, word) => total + (counts.get(word) ?? 0), 0);
}

function summary(runner: TestRunner, passed: number, failed: number, skipped: number, failing: string[]) {
  return testResults({ runner, passed, failed, skipped, failingTests: failing, source: "summary-line" });
}

/** node:test's spec reporter ("ℹ tests 5", "ℹ pass 2", …), or its TAP on stdout ("# pass 2"). */
function nodeTest(text: string): TestResults | null {
  if (/^TAP version \d+/m.test(text)) {
    const tap = parseTap(text);
    if (tap) return { ...tap, source: "summary-line" };
  }
  const value = (key: string) => {
    const match = lastMatch(text, new RegExp(`^(?:ℹ|#) ${key} (\\d+)\\s*$`, "m"));
    return match ? Number(match[1]) : null;
  };
  const tests = value("tests");
  const pass = value("pass");
  const fail = value("fail");
  if (tests === null || pass === null || fail === null) return null;
  const failing: string[] = [];
  const section = text.split(/^✖ failing tests:\s*$/m)[1] ?? "";
  for (const match of section.matchAll(/^✖ (.+?)(?: \([\d.]+m?s\))?\s*$/gm)) failing.push(match[1] ?? "");
  const cancelled = value("cancelled") ?? 0;
  const skipped = (value("skipped") ?? 0) + (value("todo") ?? 0);
  return summary("node-test", pass, fail + cancelled, skipped, failing);
}

/** Vitest: "Tests  1 failed | 2 passed | 1 skipped (4)", failing tests as " FAIL  file > suite > name". */
function vitest(text: string): TestResults | null {
  const line = lastMatch(text, /^\s*Tests\s{2,}(.+)$/m)?.[1];
  if (!line) return null;
  const counts = countsByWord(line);
  const failing = [...text.matchAll(/^\s*FAIL\s+(.+ > .+?)\s*$/gm)].map((match) => match[1] ?? "");
  return summary(
    "vitest",
    sum(counts, "passed"),
    sum(counts, "failed"),
    sum(counts, "skipped", "todo"),
    failing,
  );
}

/** Jest: "Tests:       1 failed, 1 skipped, 2 passed, 4 total", failing tests as "● suite › name". */
function jest(text: string): TestResults | null {
  const line = lastMatch(text, /^Tests:\s+(.+)$/m)?.[1];
  if (!line) return null;
  const counts = countsByWord(line);
  const failing = [...text.matchAll(/^\s*● (.+)$/gm)]
    .map((match) => (match[1] ?? "").replaceAll(" › ", " > "))
    .filter((name) => name !== "Test suite failed to run");
  return summary(
    "jest",
    sum(counts, "passed"),
    sum(counts, "failed"),
    sum(counts, "skipped", "todo", "pending"),
    failing,
  );
}

/** pytest: "1 failed, 2 passed, 1 skipped in 0.03s" (framed by "=" without -q), "FAILED a.py::t - …". */
function pytest(text: string): TestResults | null {
  const line = lastMatch(
    text,
    /^=*\s*((?:\d+ (?:passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?)(?:, )?)+|no tests ran) in [\d.]+s\b.*$/m,
  )?.[1];
  if (!line) return null;
  const counts = countsByWord(line);
  const failing = [...text.matchAll(/^(?:FAILED|ERROR) (\S+)/gm)].map((match) => match[1] ?? "");
  return summary(
    "pytest",
    sum(counts, "passed", "xpassed"),
    sum(counts, "failed", "error", "errors"),
    sum(counts, "skipped", "xfailed"),
    failing,
  );
}

/**
 * go test: its JSON events when `-json` was given; otherwise the "--- PASS/FAIL/SKIP: Name" lines
 * (printed for every test with -v, only for failures without it). Without -v a passing package prints
 * just "ok", so passes cannot be counted: null, unless every package had no test files at all.
 */
function go(text: string): TestResults | null {
  const json = parseGoJson(text);
  if (json) return { ...json, source: "summary-line" };
  const lines = [...text.matchAll(/^\s*--- (PASS|FAIL|SKIP): (\S+)/gm)].map((m) => ({
    state: m[1],
    name: m[2] ?? "",
  }));
  const verbose = /^=== RUN /m.test(text);
  if (!verbose) {
    const noTests = /^\?\s+\S+\s+\[no test files\]|^testing: warning: no tests to run/m.test(text);
    const ranSome = /^(FAIL|---)\s|^ok\s(?!.*\[no tests to run\])/m.test(text);
    return noTests && !ranSome ? summary("go", 0, 0, 0, []) : null;
  }
  // A parent whose subtests are listed is not a test of its own (as in the JSON parser).
  const names = new Set(lines.map((line) => line.name));
  const leaves = lines.filter((line) => ![...names].some((name) => name.startsWith(`${line.name}/`)));
  const failing = leaves.filter((line) => line.state === "FAIL").map((line) => line.name);
  return summary(
    "go",
    leaves.filter((line) => line.state === "PASS").length,
    failing.length,
    leaves.filter((line) => line.state === "SKIP").length,
    failing,
  );
}

/** cargo test: one "test result: … N passed; N failed; N ignored" line per test binary, added up. */
function cargo(text: string): TestResults | null {
  const results = [...text.matchAll(/^test result: \w+\. (.+)$/gm)];
  if (results.length === 0) return null;
  const counts = new Map<string, number>();
  for (const result of results)
    for (const [word, n] of countsByWord(result[1] ?? "")) counts.set(word, (counts.get(word) ?? 0) + n);
  const failing = [...text.matchAll(/^test (\S+) \.\.\. FAILED$/gm)].map((match) => match[1] ?? "");
  return summary("cargo", sum(counts, "passed"), sum(counts, "failed"), sum(counts, "ignored"), failing);
}

/** RSpec: "3 examples, 1 failure, 1 pending", failing examples as "rspec ./spec/x_spec.rb:6 # name". */
function rspec(text: string): TestResults | null {
  const line = lastMatch(text, /^(\d+ examples?, \d+ failures?.*)$/m)?.[1];
  if (!line) return null;
  const counts = countsByWord(line);
  const examples = sum(counts, "example", "examples");
  const failed = sum(counts, "failure", "failures");
  const pending = sum(counts, "pending");
  const failing = [...text.matchAll(/^rspec \S+ # (.+)$/gm)].map((match) => match[1] ?? "");
  return summary("rspec", Math.max(0, examples - failed - pending), failed, pending, failing);
}

const PARSERS: Record<TestRunner, (text: string) => TestResults | null> = {
  "node-test": nodeTest,
  vitest,
  jest,
  pytest,
  go,
  cargo,
  rspec,
};

/** Counts from a runner's printed output, or null when it printed no summary this recognises. */
export function parseSummaryLines(runner: TestRunner, output: string): TestResults | null {
  return PARSERS[runner](output.replace(ANSI, "").replaceAll("\r", ""));
}
