import { randomUUID } from "node:crypto";
import type { IntentionView } from "@/server/events/fold";
import type { ChildProposal, EventInput } from "@/server/events/schema";

/** The events that create an approved decomposition's children, in order, one level below the parent. */
export function childIntentions(
  runId: string,
  parent: Pick<IntentionView, "id" | "depth">,
  children: readonly ChildProposal[],
): EventInput[] {
  return children.map((child, position) => ({
    type: "intention-created",
    runId,
    intentionId: randomUUID(),
    parentId: parent.id,
    what: child.what,
    acceptance: child.acceptance,
    depth: parent.depth + 1,
    position,
  }));
}
