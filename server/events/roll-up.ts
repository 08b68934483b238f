import type { SessionView } from "./fold";

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
