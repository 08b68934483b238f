import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countsVeto, type TestResults } from "@/server/domain/contract/test-results";
import { parseReport } from "./parse-run";
import { parseSummaryLines } from "./summary-lines";

/**
 * Every parser against output the real runners printed (./samples): node:test (Node 24), Vitest 4,
 * Jest 30 and pytest 7 in the sandbox image, cargo 1.x on the host, go 1.19 and RSpec 3.12 from
 * Debian bookworm. Each sample has a passing, a failing and a skipped test (go: a table test too).
 */
const sample = (name: string) => readFileSync(path.join(__dirname, "samples", name), "utf8");

const counts = (results: TestResults | null) =>
  results && {
    passed: results.passed,
    failed: results.failed,
    skipped: results.skipped,
    total: results.total,
    failing: results.failingTests,
  };

describe("reports", () => {
  it("reads Vitest's JSON report, naming the failing test with its suite", () => {
    const results = parseReport("vitest", "jest-json", sample("vitest-report.json.txt"));
    expect(counts(results)).toEqual({
      passed: 2,
      failed: 1,
      skipped: 1,
      total: 4,
      failing: ["sum > adds negatives"],
    });
    expect(results?.source).toBe("reporter");
  });

  it("reads Jest's JSON report", () => {
    expect(counts(parseReport("jest", "jest-json", sample("jest-report.json.txt")))).toEqual({
      passed: 2,
      failed: 1,
      skipped: 1,
      total: 4,
      failing: ["sum > adds negatives"],
    });
  });

  it("reads node:test's TAP, counting tests (not suites) and todo as skipped", () => {
    expect(counts(parseReport("node-test", "tap", sample("node-report.tap")))).toEqual({
      passed: 2,
      failed: 1,
      skipped: 2,
      total: 5,
      failing: ["adds negatives"],
    });
  });

  it("reads pytest's JUnit XML, naming failures by node id as pytest's own summary does", () => {
    expect(counts(parseReport("pytest", "junit-xml", sample("pytest-report.xml")))).toEqual({
      passed: 2,
      failed: 1,
      skipped: 1,
      total: 4,
      failing: ["test_calc.py::test_add_negatives"],
    });
  });

  it("names a pytest failure in a package and a test class by its node id", () => {
    const report = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="3">
      <testcase classname="tests.test_cart" name="test_quantity_counts"><failure message="assert 7 == 11"/></testcase>
      <testcase classname="tests.unit.test_tax.TestVat" name="test_rate[0.2]"><error message="boom"/></testcase>
      <testcase classname="tests.test_cart" name="test_empty"/>
    </testsuite></testsuites>`;
    expect(parseReport("pytest", "junit-xml", report)?.failingTests).toEqual([
      "tests/test_cart.py::test_quantity_counts",
      "tests/unit/test_tax.py::TestVat::test_rate[0.2]",
    ]);
  });

  it("reads node:test's JUnit XML, where cases sit directly under <testsuites> and in nested suites", () => {
    expect(counts(parseReport("node-test", "junit-xml", sample("node-report.junit.xml")))).toEqual({
      passed: 2,
      failed: 1,
      skipped: 2,
      total: 5,
      failing: ["adds negatives"],
    });
  });

  it("reads a pytest run that selected no test as zero tests", () => {
    const results = parseReport("pytest", "junit-xml", sample("pytest-zero-report.xml"));
    expect(results?.total).toBe(0);
    expect(results && countsVeto(results)).toBe("ran 0 tests");
  });

  it("reads go test -json, counting subtests instead of their parent", () => {
    expect(counts(parseReport("go", "go-json", sample("go-report.jsonl.txt")))).toEqual({
      passed: 2,
      failed: 2,
      skipped: 1,
      total: 5,
      failing: ["TestAddNegatives", "TestTable/bad"],
    });
  });

  it("reads RSpec's JSON report", () => {
    expect(counts(parseReport("rspec", "rspec-json", sample("rspec-report.json.txt")))).toEqual({
      passed: 1,
      failed: 1,
      skipped: 1,
      total: 3,
      failing: ["add adds negatives"],
    });
  });

  it.each([
    ["vitest", "jest-json", '{"numPassedTests": 1'],
    ["jest", "jest-json", '{"unrelated": true}'],
    ["pytest", "junit-xml", "<html><body>not a report</body></html>"],
    ["node-test", "tap", "just some text"],
    ["go", "go-json", "ok  \texample.com/calc\t0.01s"],
    ["rspec", "rspec-json", "[]"],
  ] as const)("gives null for a %s report that is cut or not a report", (runner, format, text) => {
    expect(parseReport(runner, format, text)).toBeNull();
  });

  it("counts a Jest/Vitest file that failed to run as a failure named after the file", () => {
    const report = JSON.stringify({
      numPassedTests: 0,
      numFailedTests: 0,
      numPendingTests: 0,
      testResults: [{ name: "/w/test/broken.test.js", status: "failed", assertionResults: [] }],
    });
    expect(counts(parseReport("jest", "jest-json", report))).toMatchObject({
      failed: 1,
      failing: ["/w/test/broken.test.js (failed to run)"],
    });
  });

  it("caps the failing names and cuts a long one", () => {
    const report = JSON.stringify({
      numPassedTests: 0,
      numFailedTests: 30,
      testResults: [
        {
          name: "f",
          status: "failed",
          assertionResults: Array.from({ length: 30 }, (_, i) => ({
            ancestorTitles: [],
            title: `${i}${"x".repeat(i === 0 ? 400 : 1)}`,
            status: "failed",
          })),
        },
      ],
    });
    const results = parseReport("vitest", "jest-json", report);
    expect(results?.failed).toBe(30);
    expect(results?.failingTests).toHaveLength(20);
    expect(results?.failingTests[0]).toHaveLength(300);
  });
});

describe("summary lines (no reporter could be added)", () => {
  it.each([
    ["node-test", "node-spec.txt", { passed: 2, failed: 1, skipped: 2, failing: ["adds negatives"] }],
    [
      "vitest",
      "vitest-human.txt",
      { passed: 2, failed: 1, skipped: 1, failing: ["test/sum.test.mjs > sum > adds negatives"] },
    ],
    ["jest", "jest-human.txt", { passed: 2, failed: 1, skipped: 1, failing: ["sum > adds negatives"] }],
    [
      "pytest",
      "pytest-human.txt",
      { passed: 2, failed: 1, skipped: 1, failing: ["test_calc.py::test_add_negatives"] },
    ],
    [
      "pytest",
      "pytest-full.txt",
      { passed: 2, failed: 1, skipped: 1, failing: ["test_calc.py::test_add_negatives"] },
    ],
    [
      "go",
      "go-verbose.txt",
      { passed: 2, failed: 2, skipped: 1, failing: ["TestAddNegatives", "TestTable/bad"] },
    ],
    [
      "go",
      "go-report.jsonl.txt",
      { passed: 2, failed: 2, skipped: 1, failing: ["TestAddNegatives", "TestTable/bad"] },
    ],
    ["cargo", "cargo-failing.txt", { passed: 1, failed: 1, skipped: 1, failing: ["tests::adds_negatives"] }],
    ["cargo", "cargo-passing.txt", { passed: 3, failed: 0, skipped: 1, failing: [] }],
    ["rspec", "rspec-human.txt", { passed: 1, failed: 1, skipped: 1, failing: ["add adds negatives"] }],
  ] as const)("%s: %s", (runner, file, expected) => {
    const results = parseSummaryLines(runner, sample(file));
    expect(results && { ...counts(results), total: undefined }).toEqual({ ...expected, total: undefined });
    expect(results?.source).toBe("summary-line");
  });

  it.each([
    ["node-test", "node-zero.txt", "ran 0 tests"],
    ["vitest", "vitest-all-skipped.txt", "ran 0 tests (4 skipped)"],
    ["jest", "jest-all-skipped.txt", "ran 0 tests (4 skipped)"],
    ["pytest", "pytest-deselected.txt", "ran 0 tests"],
  ] as const)("%s: %s ran no test, which is not a pass", (runner, file, veto) => {
    const results = parseSummaryLines(runner, sample(file));
    expect(results).not.toBeNull();
    expect(results && countsVeto(results)).toBe(veto);
  });

  it("go without -v: failures are named but passes are not printed, so it gives no counts", () => {
    expect(parseSummaryLines("go", sample("go-human.txt"))).toBeNull();
  });

  it.each([
    "?   \texample.com/calc\t[no test files]\n",
    "testing: warning: no tests to run\nPASS\nok  \texample.com/calc\t0.002s [no tests to run]\n",
  ])("go: %j ran no test", (output) => {
    const results = parseSummaryLines("go", output);
    expect(results && countsVeto(results)).toBe("ran 0 tests");
  });

  it.each(["node-test", "vitest", "jest", "pytest", "go", "cargo", "rspec"] as const)(
    "%s: output without a summary gives null (the exit code decides)",
    (runner) => {
      expect(parseSummaryLines(runner, "make: Nothing to be done for 'all'.\n")).toBeNull();
    },
  );
});

describe("countsVeto", () => {
  const base = { runner: "jest", skipped: 0, total: 0, source: "reporter" } as const;
  it("passes a run with passing tests and no failure", () => {
    expect(countsVeto({ ...base, passed: 3, failed: 0, failingTests: [] })).toBeNull();
  });
  it("names failing tests even when the exit code was 0", () => {
    expect(countsVeto({ ...base, passed: 3, failed: 1, failingTests: ["a > b"] })).toBe(
      "1 test failed: a > b",
    );
  });
});
