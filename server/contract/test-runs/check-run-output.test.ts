import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkRunOf } from "@/server/domain/contract/check-run";
import { reportInOutput, testsOfCheckRun, withoutReport } from "./check-run-output";

const sample = (name: string) => readFileSync(path.join(__dirname, "samples", name), "utf8");

describe("reading the report from what the check printed", () => {
  it("vitest: the JSON line among its default output (a real Vitest 4 run)", () => {
    const run = checkRunOf("npx vitest run");
    expect(testsOfCheckRun(run, sample("vitest-stdout-report.txt"))).toMatchObject({
      runner: "vitest",
      passed: 1,
      failed: 1,
      skipped: 1,
      failingTests: ["sum > adds negatives"],
      source: "reporter",
    });
  });

  it("pytest: the JUnit XML written to stdout among pytest's own lines (a real pytest run)", () => {
    const run = checkRunOf("python3 -m pytest -q test_calc.py");
    expect(testsOfCheckRun(run, sample("pytest-stdout-report.txt"))).toMatchObject({
      runner: "pytest",
      passed: 1,
      failed: 1,
      skipped: 1,
      failingTests: [expect.stringContaining("test_add_negatives")],
      source: "reporter",
    });
  });

  it("jest and rspec: the JSON line, also after progress output on the same line", () => {
    const jest = sample("jest-report.json.txt").replace(/\n/g, " ");
    expect(reportInOutput("jest", "jest-json", `PASS x\n${jest}\nTests: 1 failed`)?.source).toBe("reporter");
    const rspec = sample("rspec-report.json.txt").replace(/\n/g, " ");
    expect(
      reportInOutput("rspec", "rspec-json", `..F*\n\nFinished in 0.01s\n3 examples, 1 failure${rspec}`),
    ).toMatchObject({ runner: "rspec", failed: 1, source: "reporter" });
  });

  it("node TAP and go events on stdout", () => {
    expect(
      testsOfCheckRun(checkRunOf("node --test"), `> p@1 test\n${sample("node-report.tap")}`)?.source,
    ).toBe("reporter");
    expect(testsOfCheckRun(checkRunOf("go test ./..."), sample("go-report.jsonl.txt"))?.runner).toBe("go");
  });

  it("the evidence a person reads has the JSON or XML report folded to one line", () => {
    const vitest = withoutReport("jest-json", sample("vitest-stdout-report.txt"));
    expect(vitest).toContain("[JSON report]");
    expect(vitest).not.toContain('"numTotalTests"');
    expect(vitest).toContain("adds negatives");
    const pytest = withoutReport("junit-xml", sample("pytest-stdout-report.txt"));
    expect(pytest).toContain("[JUnit XML report]");
    expect(pytest).not.toContain("<testcase");
    expect(pytest).toContain("1 failed, 1 passed, 1 skipped");
  });

  it("a report cut off falls back to the summary lines; nothing readable is null", () => {
    const cut = sample("pytest-stdout-report.txt").replace("</testsuites>", "");
    expect(testsOfCheckRun(checkRunOf("pytest -q"), cut)).toMatchObject({
      source: "summary-line",
      failed: 1,
    });
    expect(testsOfCheckRun(checkRunOf("pytest -q"), "Killed")).toBeNull();
  });
});
