import { phaseOf } from "@/server/domain/session/phase";
import type { SessionView } from "@/server/domain/session/view";

export function PhaseLabel({ view, runId }: { view: SessionView; runId: string }) {
  const phase = phaseOf(view, runId);
  return phase ? (
    <span className="muted small" data-testid="run-phase" data-phase={phase}>
      {phase.toLowerCase().replaceAll("_", " ")}
    </span>
  ) : null;
}
