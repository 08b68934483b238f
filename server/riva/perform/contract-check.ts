import { type Exec, verifyCriterion } from "@/server/contract/verify";
import type { CheckTestHints } from "@/server/domain/contract/check-run";
import type { CriterionResult } from "@/server/domain/contract/criteria";
import type { IntentionView } from "@/server/domain/session/view";
import { commandBinding } from "../decide/contract-judgment";

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
