import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { SessionView } from "@/server/domain/session/view";
import { capEnd } from "@/server/domain/text/cap";
import type { ActiveIntent } from "@/server/governance/intent-gate";
import { personApprovedScope } from "@/server/policy/approval/approved-scopes";
import type { EnforcedIntent } from "@/server/tools/dispatch";

/**
 * The scope the dispatch enforces on a live call (issue #15.6): the owned_scope a person approved for
 * the intention being worked (or its nearest ancestor), else the owned_scope of the project intent the
 * model selected with select_active_intent, else the whole workspace. A write outside it is refused by
 * the dispatch's scope guard with the reason — unless the project chose "ask" (`outOfScopeWrites`):
 * then it is asked of a person, whatever a pre-approval would have said. A command has no paths, so
 * only the command gate judges it.
 */
export function enforcedScope(
  view: SessionView,
  runId: string,
  intentionId: string | undefined,
  given: ActiveIntent | null,
  policy: Pick<CheckpointPolicy, "outOfScopeWrites">,
): EnforcedIntent {
  return { activeIntent: narrowed(view, runId, intentionId, given), outside: policy.outOfScopeWrites };
}

function narrowed(
  view: SessionView,
  runId: string,
  intentionId: string | undefined,
  given: ActiveIntent | null,
): ActiveIntent | null {
  if (!given) return given;
  const approved = personApprovedScope(view, intentionId);
  if (approved)
    return {
      id: `the step "${capEnd(approved.what.split("\n")[0] ?? "", 60)}" (approved scope ${approved.ownedScope.join(" ")})`,
      ownedScope: approved.ownedScope,
    };
  const selected = view.runs[runId]?.selectedIntent;
  if (selected)
    return {
      id: `${selected.intentId} (owned_scope ${selected.ownedScope.join(" ")})`,
      ownedScope: selected.ownedScope,
    };
  return given;
}
