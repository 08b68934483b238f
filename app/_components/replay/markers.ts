import type { StoredEvent } from "@/server/domain/events/schema";

export interface Marker {
  /** Position to jump to: the number of events folded, so the marked event is the last one shown. */
  position: number;
  kind: "decomposition" | "approval" | "failure" | "end";
  label: string;
}

/** The moments worth jumping to: decompositions, answers, failures, and the end of each run. */
export function markersOf(events: readonly StoredEvent[]): Marker[] {
  const markers: Marker[] = [];
  events.forEach((event, index) => {
    const body = event.body;
    const position = index + 1;
    if (body.type === "approval-requested" && body.kind === "decomposition") {
      markers.push({ position, kind: "decomposition", label: `decomposition into ${body.children.length}` });
    } else if (body.type === "approval-decided") {
      markers.push({ position, kind: "approval", label: `${body.decision} by ${body.decidedBy.name}` });
    } else if (body.type === "intention-status-changed" && body.status === "FAILED") {
      markers.push({ position, kind: "failure", label: `failed: ${(body.reason ?? "").slice(0, 60)}` });
    } else if (body.type === "run-ended") {
      markers.push({ position, kind: "end", label: `run ${body.status.toLowerCase()}` });
    }
  });
  return markers;
}
