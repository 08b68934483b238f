import type { EventOf } from "@/server/domain/events/schema";
import type { SessionView } from "@/server/domain/session/view";

/** A model call's spend, on the intention that made it and on its run (folded by `applyEvent`). */
export function foldModelCall(view: SessionView, body: EventOf<"llm-called">): void {
  const spender = body.intentionId ? view.intentions[body.intentionId] : undefined;
  if (spender) {
    spender.tokens += body.tokensIn + body.tokensOut;
    spender.costUsd += body.costUsd ?? 0;
  }
  const run = view.runs[body.runId];
  if (!run) return;
  run.llmCalls += 1;
  run.tokensIn += body.tokensIn;
  run.tokensOut += body.tokensOut;
  if (body.costUsd === null) run.unpricedCalls += body.error === null ? 1 : 0;
  else run.costUsd += body.costUsd;
}

/** An intention's spend with its whole subtree, for the tree's per-node figures. */
export function rollUp(view: SessionView, intentionId: string): { tokens: number; costUsd: number } {
  const intention = view.intentions[intentionId];
  if (!intention) return { tokens: 0, costUsd: 0 };
  return intention.childIds.reduce(
    (sum, childId) => {
      const child = rollUp(view, childId);
      return { tokens: sum.tokens + child.tokens, costUsd: sum.costUsd + child.costUsd };
    },
    { tokens: intention.tokens, costUsd: intention.costUsd },
  );
}
