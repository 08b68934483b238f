import { z } from "zod";
import { capEnd } from "@/server/domain/text/cap";

/**
 * What a test run reports, read from the runner's machine output (or, when Arbor could not add a
 * reporter, from its closing summary lines): how many tests passed, failed and were skipped, and which
 * failed. Stored on a check's result and on a command's cycle result, so it must stay small.
 */
export const TEST_RUNNERS = ["vitest", "jest", "node-test", "pytest", "go", "cargo", "rspec"] as const;
export const TestRunner = z.enum(TEST_RUNNERS);
export type TestRunner = z.infer<typeof TestRunner>;

/** How many failing test names are kept; the count says how many there were. */
export const MAX_FAILING_TESTS = 20;
const MAX_TEST_NAME = 300;

const count = z.number().int().nonnegative();

export const TestResults = z.object({
  runner: TestRunner,
  passed: count,
  /** Failed tests, plus test files or packages that failed before any test ran (a syntax error). */
  failed: count,
  /** Skipped, pending and todo tests: they did not run. */
  skipped: count,
  /** passed + failed + skipped. */
  total: count,
  failingTests: z.array(z.string().max(MAX_TEST_NAME)).max(MAX_FAILING_TESTS),
  /** "reporter": a machine-readable report; "summary-line": the runner's human closing lines. */
  source: z.enum(["reporter", "summary-line"]),
});
export type TestResults = z.infer<typeof TestResults>;

/** Builds a result, capping the names and deriving the total, so every parser returns the same shape. */
export function testResults(input: {
  runner: TestRunner;
  passed: number;
  failed: number;
  skipped: number;
  failingTests: readonly string[];
  source: TestResults["source"];
}): TestResults {
  const names = [...new Set(input.failingTests.map((name) => name.trim()).filter(Boolean))];
  return {
    runner: input.runner,
    passed: input.passed,
    failed: input.failed,
    skipped: input.skipped,
    total: input.passed + input.failed + input.skipped,
    failingTests: names.slice(0, MAX_FAILING_TESTS).map((name) => capEnd(name, MAX_TEST_NAME)),
    source: input.source,
  };
}

/** Tests that actually ran: a skipped test proves nothing either way. */
export function ranCount(results: Pick<TestResults, "passed" | "failed">): number {
  return results.passed + results.failed;
}

/** "3 passed, 1 failed, 0 skipped", as the node shows it. */
export function describeCounts(results: Pick<TestResults, "passed" | "failed" | "skipped">): string {
  return `${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`;
}

/**
 * What the counts say about a run whose exit code is known: a failed test, or a run in which no test
 * ran, is never a pass, whatever the exit code. Null when the counts do not contradict the exit code.
 */
export function countsVeto(results: TestResults): string | null {
  if (results.failed > 0)
    return `${results.failed} ${results.failed === 1 ? "test" : "tests"} failed: ${
      results.failingTests.join(", ") || "names not reported"
    }`;
  if (ranCount(results) === 0)
    return `ran 0 tests${results.skipped > 0 ? ` (${results.skipped} skipped)` : ""}`;
  return null;
}
