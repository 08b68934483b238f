/** Test results, not only exit codes (issue #15 item 4): see README "Test results". */

export {
  countsVeto,
  describeCounts,
  ranCount,
  TestResults,
  TestRunner,
} from "@/server/domain/contract/test-results";
export { detectTestRunners, planTestCommand, type TestCommandPlan, withReporter } from "./command";
export { parseTestRun, testsOfOutput } from "./parse-run";
export { parseSummaryLines } from "./summary-lines";
export { planTestCheck, runTestCheck } from "./test-check";
