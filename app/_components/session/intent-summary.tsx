import type { DiscoveredIntent } from "@/server/domain/intent/discovered-intent";
import { summarizeIntent } from "@/server/domain/intent/discovered-intent";

/** What discovery found, as the planner was told it. */
export function IntentSummary({ intent }: { intent: DiscoveredIntent | null }) {
  if (!intent) return null;
  return (
    <details className="intent-summary" data-testid="discovered-intent">
      <summary className="muted small">
        discovered intent: {intent.prompt.kind}{" "}
        <span data-testid="intent-source">
          (read by {intent.prompt.source === "model" ? "the model" : "the heuristics"})
        </span>
      </summary>
      <pre className="output">{summarizeIntent(intent)}</pre>
    </details>
  );
}
