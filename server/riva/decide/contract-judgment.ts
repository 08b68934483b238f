import { type CriterionResult, describeCriterion } from "@/server/domain/contract/criteria";
import type { Judgment } from "@/server/domain/vocabulary/session";
import { approvalBinding } from "@/server/policy/approval/binding";

/**
 * How a contract's check results judge a cycle, pure: the command binding that decides whether an
 * action may stand in for a check, the gap, the verdict and the gap contract. Running the checks is
 * `perform/contract-check.ts`.
 */

/** The binding hash of a shell command, as the approval gate binds it: equal only for identical bytes. */
export function commandBinding(command: string): string {
  return approvalBinding("shell.exec", { command });
}

export function gapOf(results: readonly CriterionResult[]): CriterionResult[] {
  return results.filter((result) => !result.passed);
}

export function describeGap(gap: readonly CriterionResult[]): string {
  return gap.map((result) => describeCriterion(result.criterion)).join("; ");
}

/** After a successful action: SUCCESS only when every criterion holds; a gap makes the cycle PARTIAL. */
export function judgeWithContract(
  results: readonly CriterionResult[],
  /** What succeeded before the contract was checked: "exit code 0", "fs.write succeeded", … */
  basis = "exit code 0",
): {
  judgment: Judgment;
  reason: string;
} {
  const notRun = results.filter((result) => result.couldNotRun !== undefined);
  if (notRun.length > 0)
    return {
      judgment: "FAILURE",
      reason: `${basis}, but a check could not run, so nothing is verified: ${notRun
        .map((result) => result.couldNotRun)
        .join("; ")}`,
    };
  const gap = gapOf(results);
  if (gap.length === 0)
    return { judgment: "SUCCESS", reason: `${basis} and all ${results.length} contract criteria hold` };
  return { judgment: "PARTIAL", reason: `${basis}, but the contract has a gap: ${describeGap(gap)}` };
}

/** The gap contract: what remains to be done, written where the next attempt (and a person) reads it. */
export function gapReflection(gap: readonly CriterionResult[]): string {
  const lines = gap.map((result) =>
    result.couldNotRun !== undefined
      ? `- ${describeCriterion(result.criterion)}: could not run (${result.couldNotRun}); make it runnable or propose a check that can run here`
      : `- ${describeCriterion(result.criterion)}: ${result.evidence.split("\n")[0] ?? ""}`,
  );
  return `Gap contract (what remains):\n${lines.join("\n")}`;
}
