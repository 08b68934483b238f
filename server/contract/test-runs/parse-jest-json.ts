import { z } from "zod";
import { type TestResults, testResults } from "@/server/domain/contract/test-results";

/**
 * Jest's `--json` report, which Vitest's `json` reporter writes in the same shape. Only the fields
 * read here are required; everything else in the report is ignored.
 */
const Assertion = z.object({
  ancestorTitles: z.array(z.string()).default([]),
  title: z.string(),
  fullName: z.string().nullish(),
  status: z.string(),
});
const JestReport = z.object({
  numPassedTests: z.number().int().nonnegative(),
  numFailedTests: z.number().int().nonnegative(),
  numPendingTests: z.number().int().nonnegative().default(0),
  numTodoTests: z.number().int().nonnegative().default(0),
  testResults: z
    .array(
      z.object({
        name: z.string(),
        status: z.string().optional(),
        assertionResults: z.array(Assertion).default([]),
      }),
    )
    .default([]),
});

export function parseJestJson(runner: "vitest" | "jest", text: string): TestResults | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const report = JestReport.safeParse(json);
  if (!report.success) return null;
  const { data } = report;
  const failing: string[] = [];
  // A test file that failed before any of its tests ran (a syntax error, a missing import) has no
  // failed assertion of its own; it still failed, and counts as one failure named after the file.
  let filesThatFailedToRun = 0;
  for (const file of data.testResults) {
    const failed = file.assertionResults.filter((test) => test.status === "failed");
    for (const test of failed) failing.push([...test.ancestorTitles, test.title].join(" > "));
    if (file.status === "failed" && failed.length === 0) {
      filesThatFailedToRun += 1;
      failing.push(`${file.name} (failed to run)`);
    }
  }
  return testResults({
    runner,
    passed: data.numPassedTests,
    failed: data.numFailedTests + filesThatFailedToRun,
    skipped: data.numPendingTests + data.numTodoTests,
    failingTests: failing,
    source: "reporter",
  });
}
