import { type CriterionResult, describeCriterion } from "@/server/contract/criteria";
import { verifyContract } from "@/server/contract/verify";
import type { IntentionView } from "@/server/events/fold";
import type { Judgment } from "@/server/events/vocabulary";
import type { Sandbox } from "@/server/sandbox/types";

/**
 * Checks an intention's contract in its sandbox. A TESTS_PASS criterion naming the very command that
 * just exited 0 is not run twice: the action is its evidence.
 */
export async function checkContract(
  sandbox: Sandbox,
  intention: Pick<IntentionView, "contract">,
  /** The command the action ran (and, when a person edited it, the one the criterion may still name). */
  ranCommands: readonly string[],
  options: { timeoutMs: number; maxOutputBytes: number },
): Promise<CriterionResult[]> {
  const exec = (command: string) => sandbox.exec(command, options);
  const results: CriterionResult[] = [];
  for (const criterion of intention.contract) {
    if (
      criterion.kind === "TESTS_PASS" &&
      ranCommands.some((ran) => ran.trim() === criterion.command.trim())
    ) {
      results.push({
        criterion,
        passed: true,
        evidence: "the action itself ran this command and it exited 0",
      });
    } else {
      results.push(...(await verifyContract(exec, [criterion])));
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
  const gap = gapOf(results);
  if (gap.length === 0)
    return { judgment: "SUCCESS", reason: `${basis} and all ${results.length} contract criteria hold` };
  return { judgment: "PARTIAL", reason: `${basis}, but the contract has a gap: ${describeGap(gap)}` };
}

/** The gap contract: what remains to be done, written where the next attempt (and a person) reads it. */
export function gapReflection(gap: readonly CriterionResult[]): string {
  const lines = gap.map(
    (result) => `- ${describeCriterion(result.criterion)}: ${result.evidence.split("\n")[0] ?? ""}`,
  );
  return `Gap contract (what remains):\n${lines.join("\n")}`;
}
