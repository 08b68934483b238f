import type { TestResults } from "@/server/domain/contract/test-results";

/**
 * A test run's counts ("3 passed, 1 failed, 0 skipped") and its failing tests, read from the runner's
 * report or summary lines. A run in which no test ran says so: it is never a pass.
 */
export function TestCounts({ tests, testId }: { tests: TestResults; testId: string }) {
  const ran = tests.passed + tests.failed;
  const more = tests.failed - tests.failingTests.length;
  return (
    <div className="test-counts" data-testid={testId} data-failed={tests.failed} data-ran={ran}>
      <span className={tests.failed > 0 || ran === 0 ? "error" : undefined}>
        {tests.passed} passed, {tests.failed} failed, {tests.skipped} skipped
      </span>{" "}
      <span className="muted small">
        ({tests.runner}, {tests.source === "reporter" ? "from its report" : "from its summary line"})
      </span>
      {ran === 0 ? <span className="error"> · ran 0 tests: not a pass</span> : null}
      {tests.failingTests.length > 0 ? (
        <ul className="failing-tests" aria-label="Failing tests">
          {tests.failingTests.map((name) => (
            <li key={name}>
              <code>{name}</code>
            </li>
          ))}
          {more > 0 ? <li className="muted">and {more} more</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
