import type { Criterion, CriterionResult } from "@/server/domain/contract/criteria";
import { isTestFile, testSubject } from "@/server/domain/contract/test-files";
import type { CodebaseIntent } from "@/server/domain/intent/codebase-intent";
import { analyzePrompt } from "@/server/domain/intent/prompt-intent";
import { shellQuote } from "../text/shell-quote";
import { requestedCommand } from "./requested-command";

/**
 * Issue #15 items 2 and 3, pure: the project's detected tests as a fallback check. An intention whose
 * acceptance names nothing checkable, or whose only checks were already green before any work, gets
 * the test command discovery detected, scoped to the test files of its targets where the runner
 * takes files. It is a real check, and it counts only as red → green: red at the baseline, green
 * after the work. Anything else (green before, could not run before) leaves the node unverified.
 */

const MAX_SCOPED_FILES = 5;
const MAX_CRITERIA = 20;

function normalize(path: string): string {
  return path.replace(/^\.\//, "").replace(/^\/workspace\//, "");
}

function stem(path: string): string {
  return (normalize(path).split("/").pop() ?? "").toLowerCase().replace(/\.[^.]+$/, "");
}

/** The workspace's test files that test one of `targets` (by name: sum.js → test/sum.test.js). */
export function testFilesFor(targets: readonly string[], testFiles: readonly string[]): string[] {
  const wanted = targets.map(normalize).filter((target) => target.length > 0);
  const stems = new Set(wanted.filter((target) => !isTestFile(target)).map(stem));
  const found = testFiles.map(normalize).filter((file) => {
    if (wanted.includes(file)) return true;
    const subject = testSubject(file);
    return subject.length > 0 && stems.has(subject);
  });
  return [...new Set(found)].slice(0, MAX_SCOPED_FILES);
}

function quoted(file: string): string {
  return /^[\w./-]+$/.test(file) ? file : shellQuote(file);
}

/** The detected runner's command for exactly these test files; null when it does not take files. */
export function scopedCommandFor(framework: string | null, files: readonly string[]): string | null {
  if (files.length === 0) return null;
  const list = files.map(quoted).join(" ");
  switch (framework) {
    case "node:test":
      // TAP on stdout: a machine-readable report with no file to read back (tap-parser reads it).
      return `node --test --test-reporter=tap ${list}`;
    case "vitest":
      return `npx vitest run ${list}`;
    case "jest":
      return `npx jest ${list}`;
    case "mocha":
      return `npx mocha ${list}`;
    case "pytest":
      return `python3 -m pytest -q ${list}`;
    case "rspec":
      return `bundle exec rspec ${list}`;
    default:
      // An npm script of unknown shape, go (packages, not files), cargo, make: the whole command.
      return null;
  }
}

/**
 * The fallback check for an intention working on `targets`, or null when discovery found no test
 * command. Scoped to the targets' test files when there are some and the runner takes files;
 * otherwise the project's whole test command.
 */
export function detectedTestCheck(
  codebase: Pick<CodebaseIntent, "testFramework" | "testCommand" | "testFiles"> | null | undefined,
  targets: readonly string[],
): Extract<Criterion, { kind: "TESTS_PASS" }> | null {
  if (!codebase?.testCommand) return null;
  const scoped = scopedCommandFor(codebase.testFramework, testFilesFor(targets, codebase.testFiles));
  return { kind: "TESTS_PASS", command: scoped ?? codebase.testCommand };
}

/**
 * Whether the contract needs the fallback after its baseline: every check ran before the work and was
 * already green (none red, none skipped, none that could not run), so none of them can show that
 * the work did anything. A contract that already carries the fallback never gets a second one.
 */
export function needsFallbackAfterBaseline(
  contract: readonly Criterion[],
  results: readonly { index: number; result: CriterionResult }[],
  skipped: readonly number[],
  alreadyDetected: readonly number[],
): boolean {
  // A contract holds at most MAX_CRITERIA checks (the event schema's cap): a full one gets no more.
  if (contract.length === 0 || contract.length >= MAX_CRITERIA) return false;
  if (alreadyDetected.length > 0 || skipped.length > 0) return false;
  if (results.length !== contract.length) return false;
  return results.every(({ result }) => result.passed && result.couldNotRun === undefined);
}

/**
 * The files an intention works on, for scoping its detected tests: those its own words name, else
 * the request's (discovery's targets), so a child names its own and the root the request's.
 */
export function contractTargets(intention: { what: string }, requestTargets: readonly string[]): string[] {
  const own = analyzePrompt(intention.what).targets;
  return own.length > 0 ? own : [...requestTargets];
}

/**
 * The fallback for one intention, as the decomposition card lists it (child-checks.ts): none for an
 * intention that is itself a command ("run `make`" is checked by exactly that command).
 */
export function detectedFallback(
  intention: { what: string },
  codebase: Pick<CodebaseIntent, "testFramework" | "testCommand" | "testFiles"> | null | undefined,
  requestTargets: readonly string[],
): Extract<Criterion, { kind: "TESTS_PASS" }> | null {
  if (requestedCommand(intention.what) !== null) return null;
  return detectedTestCheck(codebase, contractTargets(intention, requestTargets));
}
