import { detectTestRunners, type ReportFormat } from "@/server/domain/contract/test-command";
import type { TestResults, TestRunner } from "@/server/domain/contract/test-results";
import { parseGoJson } from "./parse-go-json";
import { parseJestJson } from "./parse-jest-json";
import { parseJunitXml } from "./parse-junit";
import { parseRspecJson } from "./parse-rspec-json";
import { parseTap } from "./parse-tap";
import { parseSummaryLines } from "./summary-lines";

/** A report the runner wrote, in its format. */
export function parseReport(runner: TestRunner, format: ReportFormat, text: string): TestResults | null {
  switch (format) {
    case "jest-json":
      return runner === "vitest" || runner === "jest" ? parseJestJson(runner, text) : null;
    case "tap":
      return parseTap(text);
    case "junit-xml":
      return runner === "pytest" || runner === "node-test" ? parseJunitXml(runner, text) : null;
    case "go-json":
      return parseGoJson(text);
    case "rspec-json":
      return parseRspecJson(text);
  }
}

/**
 * A test run's counts: from its report when there is one that parses, otherwise from the closing
 * lines of its output, trying each candidate runner in turn. Null when neither says anything.
 */
export function parseTestRun(input: {
  runners: readonly TestRunner[];
  report: { format: ReportFormat; text: string } | null;
  output: string;
}): TestResults | null {
  const [first] = input.runners;
  if (first && input.report) {
    const fromReport = parseReport(first, input.report.format, input.report.text);
    if (fromReport) return fromReport;
  }
  for (const runner of input.runners) {
    const fromOutput = parseSummaryLines(runner, input.output);
    if (fromOutput) return fromOutput;
  }
  return null;
}

/**
 * A command's counts from what it printed, when it runs a known test runner. An action runs exactly
 * the command that was approved, so no reporter is added: only the summary lines are read.
 */
export function testsOfOutput(command: string, output: string): TestResults | null {
  const runners = detectTestRunners(command);
  return runners.length > 0 ? parseTestRun({ runners, report: null, output }) : null;
}
