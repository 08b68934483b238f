import type { CorrectionEntry, ReasoningEntry } from "@/server/domain/session/view";

/**
 * The person's reasoning switch made visible (seed 001 §4.3: the UI may show the full text; the model
 * only ever gets the compact outcome back). The warmup shows on the run's root, each reflection in
 * the cycle it led to; both are closed until opened, so a long text never pushes the tree away.
 */

function Outcome({ entry }: { entry: ReasoningEntry }) {
  const { plan_delta, next_action, known_risks, delivery_state } = entry.outcome;
  return (
    <dl className="reasoning-outcome small" data-testid="reasoning-outcome">
      <dt>carried forward</dt>
      <dd className="muted">only this compact outcome goes into later model requests</dd>
      {plan_delta && (
        <>
          <dt>plan</dt>
          <dd>{plan_delta}</dd>
        </>
      )}
      {next_action && (
        <>
          <dt>next</dt>
          <dd>{next_action}</dd>
        </>
      )}
      {known_risks && (
        <>
          <dt>risks</dt>
          <dd>{known_risks}</dd>
        </>
      )}
      <dt>delivery</dt>
      <dd data-testid="reasoning-delivery">{delivery_state}</dd>
    </dl>
  );
}

function who(entry: ReasoningEntry): string {
  return entry.offline ? "built-in offline model (heuristics)" : entry.modelId;
}

/** The run's warmup (analyze, research, plan, reflect, action, delivery), in full. */
export function WarmupReasoning({ entry }: { entry: ReasoningEntry | undefined }) {
  if (!entry) return null;
  return (
    <details className="reasoning" data-testid="run-reasoning">
      <summary className="small">
        reasoning before the work (warmup) · {who(entry)} · {entry.outcome.delivery_state}
      </summary>
      <pre className="output" data-testid="reasoning-text">
        {entry.text}
      </pre>
      <Outcome entry={entry} />
    </details>
  );
}

/** A cycle's reflection: what the model thought between the last step and this action. */
export function CycleReasoning({ entry }: { entry: ReasoningEntry }) {
  return (
    <details className="reasoning" data-testid="cycle-reasoning">
      <summary className="small">
        reflection · {entry.outcome.next_action || "(no next action named)"}
      </summary>
      <pre className="output" data-testid="reasoning-text">
        {entry.text}
      </pre>
      <Outcome entry={entry} />
    </details>
  );
}

/** Correction prompts sent with retries in this run: which kind, and what went wrong. */
export function CorrectionList({ corrections }: { corrections: CorrectionEntry[] }) {
  if (corrections.length === 0) return null;
  return (
    <details className="reasoning" data-testid="run-corrections">
      <summary className="small muted">
        {corrections.length} correction{corrections.length === 1 ? "" : "s"} sent to the model (your mode
        unchanged)
      </summary>
      <ul className="small">
        {corrections.map((correction) => (
          <li key={correction.seq} data-testid="correction">
            <code>{correction.kind}</code> ({correction.stage}, prompt <code>{correction.prompt}</code>):{" "}
            {correction.problem}
          </li>
        ))}
      </ul>
    </details>
  );
}
