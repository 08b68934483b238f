import { isTestFile, testSubject } from "@/server/domain/contract/test-files";
import { shellQuote } from "@/server/domain/text/shell-quote";

/**
 * Issue #4's rule for a model-written test (test generation before the loop): a test file is
 * generated only when none exists for the target, never for Rust (cargo tests live inside the
 * crate's sources, so a separate file is not how Rust is tested), and it is run with a command
 * scoped to that file — the whole suite could fail for reasons that have nothing to do with the work.
 * Pure: the caller passes what discovery found (framework, test files) and the model's proposal.
 */

export interface ProposedTest {
  path: string;
  content: string;
  command: string;
}

export interface TestRuleContext {
  /** Discovery's framework name (`codebase-intent.ts`: vitest, jest, mocha, pytest, go test, …). */
  framework: string | null;
  /** The workspace's test files as discovery listed them. */
  testFiles: readonly string[];
}

export type TestRuleOutcome = { kept: ProposedTest } | { dropped: string };

function normalize(path: string): string {
  return path.replace(/^\.\//, "").replace(/^\/workspace\//, "");
}

/** The test file already in the workspace for the generated test's target, if any. */
export function existingTestFor(generatedPath: string, testFiles: readonly string[]): string | undefined {
  const path = normalize(generatedPath);
  const subject = testSubject(path);
  return testFiles
    .map(normalize)
    .find((file) => file === path || (isTestFile(file) && subject !== "" && testSubject(file) === subject));
}

function isRust(framework: string | null): boolean {
  return framework !== null && /cargo|rust/i.test(framework);
}

/** The command that runs only `path`, per framework; null when discovery knows no such command. */
export function scopedTestCommand(framework: string | null, path: string): string | null {
  const file = normalize(path);
  const quoted = shellQuote(file);
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
  switch (framework) {
    case "vitest":
      return `npx vitest run ${quoted}`;
    case "jest":
      return `npx jest ${quoted}`;
    case "mocha":
      return `npx mocha ${quoted}`;
    case "pytest":
      return `python3 -m pytest -q ${quoted}`;
    case "go test":
      // Go runs packages, not files: the generated file's package is its directory.
      return dir === "." ? "go test ." : `go test ./${shellQuote(dir)}`;
    case "rspec":
      return `bundle exec rspec ${quoted}`;
    default:
      return null;
  }
}

/** Whether a command already names the file (or, for Go, its package directory). */
function isScoped(command: string, framework: string | null, path: string): boolean {
  const file = normalize(path);
  if (command.includes(file)) return true;
  if (framework === "go test") {
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
    return dir === "." ? /\bgo test \.(\s|$)/.test(command) : command.includes(`./${dir}`);
  }
  return false;
}

export function applyTestRule(test: ProposedTest, context: TestRuleContext): TestRuleOutcome {
  if (isRust(context.framework)) {
    return {
      dropped: `generated test ${test.path}: not for Rust (cargo tests live in the crate's sources)`,
    };
  }
  const existing = existingTestFor(test.path, context.testFiles);
  if (existing) {
    return { dropped: `generated test ${test.path}: a test for it already exists (${existing})` };
  }
  if (isScoped(test.command, context.framework, test.path)) return { kept: test };
  const scoped = scopedTestCommand(context.framework, test.path);
  return { kept: scoped ? { ...test, command: scoped } : test };
}
