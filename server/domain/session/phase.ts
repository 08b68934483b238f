import type { SessionView } from "@/server/domain/session/view";

/**
 * Seed 000's execution phases, derived from the log rather than stored, so they can never disagree
 * with what actually happened.
 */
export const PHASES = [
  "DISCOVERING_INTENT",
  "BUILDING_CONTRACT",
  "EXECUTING_PLAN",
  "VERIFYING",
  "COMPLETED",
  "FAILED",
  "STOPPED",
] as const;
export type Phase = (typeof PHASES)[number];

export function phaseOf(view: SessionView, runId: string): Phase | null {
  const run = view.runs[runId];
  if (!run) return null;
  if (run.status === "VERIFIED" || run.status === "ANSWERED") return "COMPLETED";
  if (run.status === "FAILED" || run.status === "STOPPED") return run.status;
  if (run.intent === null) return "DISCOVERING_INTENT";
  const root = run.rootId ? view.intentions[run.rootId] : undefined;
  if (!root || root.decisions.length === 0) return "BUILDING_CONTRACT";
  const children = root.childIds.map((id) => view.intentions[id]);
  if (children.length > 0 && children.every((child) => child?.status === "VERIFIED")) return "VERIFYING";
  return "EXECUTING_PLAN";
}
