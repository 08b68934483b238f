import { verifyCriterion } from "@/server/contract/verify";
import { GUARD_REPAIRS } from "@/server/domain/contract/regression-guard";
import type { EventInput } from "@/server/domain/events/schema";
import type { IntentionView } from "@/server/domain/session/view";
import type { CheckRecord } from "./check-exec";
import { askFor, checksExec } from "./check-phases";
import type { CycleHost } from "./cycle-host";

const WHEN = {
  before: "before any work",
  after: "after the work, before the task counts as verified",
} as const;

/**
 * The regression guard's run (decide/guard-step.ts says when): the project's test command through
 * the one door like every check, its report read for counts and failing names. A command the policy
 * would ask about asks with a command card, once, like a contract check at the baseline; approving it
 * lets exactly that command run as the guard (before and after), and a card answered without
 * approving leaves the guard "could not run" — it then stands aside, it never blocks on a click.
 */
export async function runRegressionGuard(
  host: CycleHost,
  root: IntentionView,
  phase: "before" | "after",
  command: string,
): Promise<void> {
  const record: CheckRecord = { events: [], asks: [] };
  const site = { runId: host.runId, intentionId: root.id, cycleId: null, phase: "guard" } as const;
  const result = await verifyCriterion(
    checksExec(host, root, site, record),
    { kind: "TESTS_PASS", command },
    host.testHints?.(root),
  );
  const card = askFor(
    host,
    root,
    "guard",
    record,
    (asked) =>
      `Regression guard ${WHEN[phase]}: run \`${asked}\` (the project's tests; they can only stop a "verified", never give one).`,
  );
  if (card) return host.append([...record.events, card]);
  await host.append([
    ...record.events,
    {
      type: "regression-guard-checked",
      runId: host.runId,
      intentionId: root.id,
      phase,
      command,
      result,
      // The repairs this run may get are fixed when it starts, so a resume gives the same answer.
      ...(phase === "before" ? { repairs: GUARD_REPAIRS } : {}),
    },
  ]);
}

/** The root got a repair cycle for the guard's regression (decide/guard-step.ts decided it). */
export function guardRepairEvent(runId: string, root: IntentionView, reason: string): EventInput {
  return { type: "regression-guard-repair", runId, intentionId: root.id, reason };
}
