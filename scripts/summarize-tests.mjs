// Adds up the JSON reports of vitest and Playwright into the one closing line CI reads:
// "N passed, N failed". A step that failed without a report (lint, types, build) counts as a failure.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const [dir, failedStepsArg] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

for (const name of ["unit.json", "integration.json", "integration-postgres.json"]) {
  const file = path.join(dir, name);
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

const e2e = path.join(dir, "playwright.json");
if (existsSync(e2e)) {
  const stats = JSON.parse(readFileSync(e2e, "utf8")).stats ?? {};
  passed += stats.expected ?? 0;
  failed += (stats.unexpected ?? 0) + (stats.flaky ?? 0);
  skipped += stats.skipped ?? 0;
}

const steps = existsSync(path.join(dir, "steps.txt"))
  ? readFileSync(path.join(dir, "steps.txt"), "utf8")
  : "";
const stepFailures = steps.split("\n").filter((line) => line.endsWith("FAILED")).length;
// A failed step whose tests all passed (lint, types, build, bench) still fails the run.
if (failed === 0 && Number(failedStepsArg) > 0) failed += stepFailures;

console.log(steps.trim());
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
