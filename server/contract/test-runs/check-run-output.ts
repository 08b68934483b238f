import type { CheckRun } from "@/server/domain/contract/check-run";
import type { ReportFormat } from "@/server/domain/contract/test-command";
import type { TestResults, TestRunner } from "@/server/domain/contract/test-results";
import { parseReport } from "./parse-run";
import { parseSummaryLines } from "./summary-lines";

/**
 * Reading a test check's output: the report the runner printed on stdout (the command is
 * server/domain/contract/check-run.ts's `checkRunOf`), else its closing summary lines.
 */

/** The report inside what the command printed (stdout, then stderr), or null when it is not there whole. */
export function reportInOutput(runner: TestRunner, format: ReportFormat, output: string): TestResults | null {
  switch (format) {
    case "tap":
    case "go-json":
      // Line formats: lines that are not the report's are ignored by their parsers.
      return parseReport(runner, format, output);
    case "junit-xml": {
      const start = output.indexOf("<?xml");
      const end = output.lastIndexOf("</testsuites>");
      if (start < 0 || end < start) return null;
      return parseReport(runner, format, output.slice(start, end + "</testsuites>".length));
    }
    case "jest-json":
    case "rspec-json": {
      // One line of JSON (JSON.stringify / to_json), possibly after RSpec's progress on the same line.
      for (const line of output.split("\n").reverse()) {
        const at = line.indexOf('{"');
        if (at < 0) continue;
        const parsed = parseReport(runner, format, line.slice(at).trimEnd());
        if (parsed) return parsed;
      }
      return null;
    }
  }
}

/**
 * What the check printed with a JSON or XML report folded to one marker line, for the evidence a
 * person reads (the report itself is stored as counts). Line formats (TAP, go's events) stay as printed.
 */
export function withoutReport(format: ReportFormat | null, output: string): string {
  if (format === "junit-xml") {
    const start = output.indexOf("<?xml");
    const end = output.lastIndexOf("</testsuites>");
    if (start < 0 || end < start) return output;
    return `${output.slice(0, start)}[JUnit XML report]${output.slice(end + "</testsuites>".length)}`;
  }
  if (format !== "jest-json" && format !== "rspec-json") return output;
  return output
    .split("\n")
    .map((line) => {
      const at = line.indexOf('{"');
      if (at < 0) return line;
      try {
        JSON.parse(line.slice(at).trimEnd());
        return `${line.slice(0, at)}[JSON report]`;
      } catch {
        return line;
      }
    })
    .join("\n");
}

/** A check run's counts: from its report when it printed one whole, else from the closing summary lines. */
export function testsOfCheckRun(run: CheckRun, output: string): TestResults | null {
  const [first] = run.runners;
  if (first && run.report) {
    const fromReport = reportInOutput(first, run.report, output);
    if (fromReport) return fromReport;
  }
  for (const runner of run.runners) {
    const fromOutput = parseSummaryLines(runner, output);
    if (fromOutput) return fromOutput;
  }
  return null;
}
