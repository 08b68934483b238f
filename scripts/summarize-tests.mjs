// Adds up the JSON reports of vitest and Playwright into the one closing line CI reads:
// "N passed, N failed". A step that failed without a report (lint, types, build) counts as a failure.
// The names of what failed are printed just above it: CI keeps only the tail of a long run's output.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const [dir, failedStepsArg] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
/** "file › test: first line of the error", for every failed test or test file. */
const failures = [];
const firstLine = (text) =>
  String(text ?? "")
    .split("\n")
    .find((line) => line.trim() !== "") ?? "";

for (const name of ["unit.json", "integration.json", "integration-postgres.json"]) {
  const file = path.join(dir, name);
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name ?? "");
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests)
      failures.push(`${name}: ${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // A file that failed to load or crashed has no failed test of its own.
    if (file.status === "failed" && failedTests.length === 0)
      failures.push(`${name}: ${where} (the file itself): ${firstLine(file.message)}`);
  }
}

const e2e = path.join(dir, "playwright.json");
if (existsSync(e2e)) {
  const stats = JSON.parse(readFileSync(e2e, "utf8")).stats ?? {};
  passed += stats.expected ?? 0;
  failed += (stats.unexpected ?? 0) + (stats.flaky ?? 0);
  skipped += stats.skipped ?? 0;
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === "unexpected" || test.status === "flaky")
          failures.push(
            `e2e: ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(test.results?.at(-1)?.error?.message)}`,
          );
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of JSON.parse(readFileSync(e2e, "utf8")).suites ?? []) walk(suite);
}

const steps = existsSync(path.join(dir, "steps.txt"))
  ? readFileSync(path.join(dir, "steps.txt"), "utf8")
  : "";
const stepFailures = steps.split("\n").filter((line) => /: FAILED( \(\d+ s\))?$/.test(line)).length;
// A failed step whose tests all passed (lint, types, build, bench) still fails the run.
if (failed === 0 && Number(failedStepsArg) > 0) failed += stepFailures;

console.log(steps.trim());
for (const failure of failures) console.log(`failed: ${failure.slice(0, 300)}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
