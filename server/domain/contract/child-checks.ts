import type { CodebaseIntent } from "@/server/domain/intent/codebase-intent";
import { checkCommandsOf } from "./check-commands";
import { type CheckTestHints, checkRunOf } from "./check-run";
import type { Criterion } from "./criteria";
import { detectedFallback } from "./detected-tests";
import { parseAcceptance } from "./parse-acceptance";
import { guardCommandFor } from "./regression-guard";
import { requestedCommand } from "./requested-command";

/**
 * The checks a decomposition card shows for one child before it is approved, computed as the
 * contract step will compute them (understanding-step.ts): what its acceptance names, else its own
 * command ("run `make`"), and the project's detected tests as the fallback (when nothing is named, or
 * when every named check is already green before any work). A person's approval of the card covers
 * exactly these commands, bound by their hash (check-approvals.ts). Pure: the page computes the same.
 */
/**
 * The version of what a decomposition card lists as each child's checks (`childCheckPlan`,
 * `integrationCheckCommands`, the reporter forms of `checkRunOf`). A person's approval records the
 * version it saw; when the plan's rules change, bump it, so an approval given under the old rules
 * never covers a command the new rules compute (the check then asks, or the policy decides).
 */
export const CHECK_PLAN_VERSION = 3;

export interface ChildCheckPlan {
  /** The exact commands of the named checks (or of the child's own command), in order. */
  named: string[];
  /** Where `named` comes from: the acceptance, the child's own command, or nothing yet. */
  source: "acceptance" | "request" | null;
  /** The project's detected tests for this child, run as the fallback (null: none detected). */
  detected: string | null;
}

/** What discovery read that decides a test check's reporter form (check-run.ts): the same everywhere. */
export function testHintsOf(
  codebase: Pick<CodebaseIntent, "testFramework" | "testScript"> | null | undefined,
): CheckTestHints {
  return { testScript: codebase?.testScript ?? null, framework: codebase?.testFramework ?? null };
}

/**
 * The hints for an intention's checks: an intention that is itself a command ("run `pytest`") is
 * checked by exactly that command, never with a reporter added; every other one by the reporter form.
 */
export function checkHintsFor(
  intention: { what: string },
  codebase: Pick<CodebaseIntent, "testFramework" | "testScript"> | null | undefined,
): CheckTestHints {
  return requestedCommand(intention.what) !== null ? { asWritten: true } : testHintsOf(codebase);
}

export function childCheckPlan(
  child: { what: string; acceptance: string },
  codebase:
    | Pick<CodebaseIntent, "testFramework" | "testCommand" | "testFiles" | "testScript">
    | null
    | undefined,
  requestTargets: readonly string[],
): ChildCheckPlan {
  const hints = checkHintsFor(child, codebase);
  const parsed = parseAcceptance(child.acceptance);
  const own = requestedCommand(child.what);
  const requested = parsed.length === 0 ? own : null;
  const named =
    parsed.length > 0
      ? parsed.flatMap((criterion) => checkCommandsOf(criterion, hints))
      : requested
        ? [checkRunOf(requested, hints).command]
        : [];
  const source = parsed.length > 0 ? "acceptance" : requested ? "request" : null;
  // An intention that is itself a command is checked by that command, never by a fallback.
  const detected = own ? null : detectedFallback(child, codebase, requestTargets);
  return { named, source, detected: detected ? checkRunOf(detected.command, hints).command : null };
}

/** Every command the card listed for the child: what a person's approval of the card covers. */
export function childCheckCommands(plan: ChildCheckPlan): string[] {
  return plan.detected ? [...plan.named, plan.detected] : plan.named;
}

/**
 * The regression guard's command exactly as it runs (with the runner's reporter), for a run's root:
 * the root's decomposition card lists it, and a person's approval of the card covers it, before and
 * after the work (regression-guard.ts). Null: the run has no guard.
 */
export function guardCheckCommand(
  run: {
    mode: string;
    intent: {
      codebase?: Pick<CodebaseIntent, "testCommand" | "testFramework" | "testScript"> | null;
    } | null;
  },
  root: { what: string; contract: readonly Criterion[] },
): string | null {
  const command = guardCommandFor(run, root);
  return command ? checkRunOf(command, checkHintsFor(root, run.intent?.codebase)).command : null;
}

/**
 * The checks a split intention runs itself at integration, once every child is verified: its own
 * contract's commands. Its decomposition card lists them, and a person's approval covers them.
 */
export function integrationCheckCommands(
  contract: readonly Criterion[],
  hints: CheckTestHints = {},
): string[] {
  return contract.flatMap((criterion) => checkCommandsOf(criterion, hints));
}
