import type { SessionView } from "@/server/events/fold";
import { phaseOf } from "@/server/riva/phase";

export function PhaseLabel({ view, runId }: { view: SessionView; runId: string }) {
  const phase = phaseOf(view, runId);
  return phase ? (
    <span className="muted small" data-testid="run-phase" data-phase={phase}>
      {phase.toLowerCase().replaceAll("_", " ")}
    </span>
  ) : null;
}
