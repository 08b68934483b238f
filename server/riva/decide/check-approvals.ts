import {
  CHECK_PLAN_VERSION,
  checkHintsFor,
  childCheckCommands,
  childCheckPlan,
  guardCheckCommand,
  integrationCheckCommands,
} from "@/server/domain/contract/child-checks";
import type { RivaLimits } from "@/server/domain/session/limits";
import type { ApprovalView, IntentionView, SessionView } from "@/server/domain/session/view";
import { commandBinding } from "./contract-judgment";
import { approvedCall } from "./tool-approval";

/** The id the auto checkpoint answers with: its approvals are never a person's. */
export const AUTO_DECIDER_ID = "auto";

/** A decomposition card's approval covers the checks it listed only under the plan's current rules. */
function coversChecks(approval: ApprovalView): boolean {
  return approval.checkPlanVersion === CHECK_PLAN_VERSION;
}

function byPerson(approval: ApprovalView): boolean {
  return (
    approval.status === "APPROVED" &&
    approval.decidedById !== undefined &&
    approval.decidedById !== AUTO_DECIDER_ID
  );
}

/**
 * A person's approval that covers running `command` as a check of `intention`, bound by its hash: the
 * decomposition card that created the intention and listed the command (approved by a person, not the
 * auto checkpoint), or a command card of this intention the person approved with exactly this command
 * (an edit approves only the edited command). Null: the dispatch's policy alone decides.
 */
export function personApprovalForCheck(
  view: Pick<SessionView, "approvals" | "runs">,
  intention: Pick<IntentionView, "id" | "parentId" | "what" | "acceptance" | "contract">,
  command: string,
): { binding: string; approver: string | null } | null {
  const binding = commandBinding(command);
  for (const approval of Object.values(view.approvals)) {
    if (!byPerson(approval)) continue;
    // The card of this intention's own split listed its integration checks (its contract's commands).
    if (
      approval.kind === "decomposition" &&
      approval.intentionId === intention.id &&
      coversChecks(approval)
    ) {
      const hints = checkHintsFor(intention, view.runs[approval.runId]?.intent?.codebase);
      if (integrationCheckCommands(intention.contract, hints).map(commandBinding).includes(binding))
        return { binding, approver: approval.decidedBy };
      // A root's card listed the regression guard too (runs it before and after the work).
      const run = view.runs[approval.runId];
      const guard = run && run.rootId === intention.id ? guardCheckCommand(run, intention) : null;
      if (guard !== null && commandBinding(guard) === binding)
        return { binding, approver: approval.decidedBy };
    }
    if (
      approval.kind === "decomposition" &&
      approval.intentionId === intention.parentId &&
      coversChecks(approval)
    ) {
      // Exactly what the card listed for this child (the same pure plan the page showed).
      const discovered = view.runs[approval.runId]?.intent;
      const plan = childCheckPlan(intention, discovered?.codebase, discovered?.prompt.targets ?? []);
      const listed = childCheckCommands(plan).map(commandBinding);
      if (listed.includes(binding)) return { binding, approver: approval.decidedBy };
    }
    if ((approval.kind === "command" || approval.kind === "tool") && approval.intentionId === intention.id) {
      const { call } = approvedCall(approval);
      if (call.tool === "shell.exec" && call.input.command === command)
        return { binding, approver: approval.decidedBy };
    }
  }
  return null;
}

/**
 * A check's own card runs as one more cycle once approved: only ask when the limits leave room for it
 * (counting the cycle being recorded now, which the view does not hold yet).
 */
export function roomForCycle(
  view: Pick<SessionView, "intentions">,
  runId: string,
  intentionId: string,
  limits: Pick<RivaLimits, "maxCyclesPerIntention" | "maxIterations">,
): boolean {
  const own = (view.intentions[intentionId]?.cycles.length ?? 0) + 1;
  const inRun =
    Object.values(view.intentions)
      .filter((intention) => intention.runId === runId)
      .reduce((sum, intention) => sum + intention.cycles.length, 0) + 1;
  return own < limits.maxCyclesPerIntention && inRun < limits.maxIterations;
}

/**
 * Whether a person already answered the card for running `command` as a check of `intention` outside
 * a cycle (`phase`): approved or not, it is not asked again (an approval lets exactly it run; a
 * rejection, or an edit that changed it, leaves it "could not run").
 */
export function checkAnswered(
  view: Pick<SessionView, "approvals">,
  intention: Pick<IntentionView, "id">,
  phase: "baseline" | "integration" | "guard",
  command: string,
): boolean {
  return Object.values(view.approvals).some(
    (approval) =>
      approval.intentionId === intention.id &&
      approval.checkPhase === phase &&
      approval.command === command &&
      approval.status !== "PENDING",
  );
}
