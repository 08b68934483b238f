import { budgetOf, describeAllowance } from "@/server/domain/session/budgets";
import { rollUp } from "@/server/domain/session/fold";
import type { RunView, SessionView } from "@/server/domain/session/view";

export function formatUsd(usd: number): string {
  return usd === 0 ? "$0" : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** The run's model spend, live: calls, tokens, and money (a lower bound when some model has no price). */
export function RunSpend({ run }: { run: RunView }) {
  const unpriced = run.unpricedCalls > 0 ? "+" : "";
  return (
    <span
      className="muted small"
      data-testid="run-cost"
      title={run.unpricedCalls > 0 ? `${run.unpricedCalls} calls have no configured price` : undefined}
    >
      {run.llmCalls} model calls · {(run.tokensIn + run.tokensOut).toLocaleString("en-US")} tokens ·{" "}
      {formatUsd(run.costUsd)}
      {unpriced}
    </span>
  );
}

/** An intention's spend with its subtree (what its decomposition cost in total), and its budget. */
export function NodeSpend({ view, intentionId }: { view: SessionView; intentionId: string }) {
  const { tokens, costUsd } = rollUp(view, intentionId);
  const intention = view.intentions[intentionId];
  const budget = intention ? budgetOf(view, intention) : null;
  if (tokens === 0 && !budget) return null;
  return (
    <span className="muted small" data-testid="intention-cost">
      {tokens.toLocaleString("en-US")} tok · {formatUsd(costUsd)}
      {budget && <span data-testid="intention-budget"> of {describeAllowance(budget)}</span>}
    </span>
  );
}
