import type { EventLog } from "@/server/events/log";
import { readView } from "@/server/events/read-view";
import type { PreApprovableCategory } from "@/server/policy/checkpoints";
import { UserFacingError } from "./errors";

/**
 * Seed 004's batch pre-approval for one run, granted from the session bar (a tool card grants it
 * with its answer instead). Only a running run of this session takes it; the engine reads it from the
 * log before its next gate (run-pre-approvals.ts). The caller has checked the person may approve.
 */
export async function grantRunPreApproval(
  log: EventLog,
  input: {
    sessionId: string;
    runId: string;
    categories: PreApprovableCategory[];
    actor: { userId: string; name: string };
  },
): Promise<void> {
  const view = await readView(log, input.sessionId);
  const run = view.runs[input.runId];
  if (!run) throw new UserFacingError("That run does not exist.", "NOT_FOUND");
  if (run.status !== "RUNNING")
    throw new UserFacingError("That run has ended: a pre-approval only helps a running run.", "CONFLICT");
  const categories = input.categories.filter(
    (category) => !run.preApproved.some((grant) => grant.category === category),
  );
  if (categories.length === 0) return;
  await log.append(input.sessionId, [
    { type: "run-pre-approved", runId: input.runId, categories, grantedBy: input.actor },
  ]);
}
