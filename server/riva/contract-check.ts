import { type Exec, verifyCriterion } from "@/server/contract/verify";
import type { CheckTestHints } from "@/server/domain/contract/check-run";
import { type CriterionResult, describeCriterion } from "@/server/domain/contract/criteria";
import type { IntentionView } from "@/server/domain/session/view";
import type { Judgment } from "@/server/domain/vocabulary/session";
import { approvalBinding } from "@/server/policy/approval/binding";

/** The binding hash of a shell command, as the approval gate binds it: equal only for identical bytes. */
export function commandBinding(command: string): string {
  return approvalBinding("shell.exec", { command });
}

/**
 * Checks an intention's contract. A TESTS_PASS criterion is not run twice only when the command the
 * action executed (and that exited 0) is byte-identical to the criterion's: the binding hashes are
 * compared, never the text trimmed or the command that was proposed. A person's edit therefore never
 * inherits the check; the check runs itself, through `exec` (the one door, see check-exec.ts).
 */
export async function checkContract(
  exec: Exec,
  intention: Pick<IntentionView, "contract">,
  /** The command the action executed and that exited 0 (null: not a command, or it failed). */
  ranCommand: string | null,
  /** What discovery read, for a test check's reporter form (check-run.ts). */
  hints: CheckTestHints = {},
): Promise<CriterionResult[]> {
  const ran = ranCommand === null ? null : commandBinding(ranCommand);
  const results: CriterionResult[] = [];
  for (const criterion of intention.contract) {
    if (criterion.kind === "TESTS_PASS" && ran !== null && ran === commandBinding(criterion.command)) {
      results.push({
        criterion,
        passed: true,
        ranAs: ran,
        evidence: `the action ran exactly this command (${ran.slice(0, 19)}…) and it exited 0`,
      });
    } else {
      results.push(await verifyCriterion(exec, criterion, hints));
    }
  }
  return results;
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
