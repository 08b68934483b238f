import { z } from "zod";
import type { DeliveryState } from "./reasoning-outcome";

/**
 * The delivery gate (seed 001 §2.5): whether the user's request is delivered. It starts NEEDS_WORK and
 * becomes DONE once an authoritative source says so; after that no event can erase it — not QA, not a
 * retried final answer, not a later model turn that says NEEDS_WORK by mistake. QA is advisory
 * (§2.3), so its reports never move the gate in either direction.
 */

export const DELIVERY_SOURCES = ["delivery_check", "verification", "qa_review", "final_retry"] as const;
export const DeliverySource = z.enum(DELIVERY_SOURCES);
export type DeliverySource = z.infer<typeof DeliverySource>;

/** Sources whose word can mark a request delivered. */
const AUTHORITATIVE: readonly DeliverySource[] = ["delivery_check", "verification"];

export type DeliveryGate =
  | { status: "NEEDS_WORK"; reports: number }
  | { status: "DONE"; reports: number; doneBy: DeliverySource; doneAt: number; reason: string };

export interface DeliveryReport {
  type: "reported";
  state: DeliveryState;
  source: DeliverySource;
  /** Event sequence number (or clock), recorded with DONE so the log shows when it happened. */
  at: number;
  reason: string;
}

export const INITIAL_DELIVERY_GATE: DeliveryGate = { status: "NEEDS_WORK", reports: 0 };

export function reduceDeliveryGate(gate: DeliveryGate, report: DeliveryReport): DeliveryGate {
  // DONE is terminal: the same object comes back, so even its report counter cannot be touched.
  if (gate.status === "DONE") return gate;
  const reports = gate.reports + 1;
  if (report.state === "DONE" && AUTHORITATIVE.includes(report.source)) {
    return { status: "DONE", reports, doneBy: report.source, doneAt: report.at, reason: report.reason };
  }
  return { status: "NEEDS_WORK", reports };
}

export function foldDeliveryGate(reports: readonly DeliveryReport[]): DeliveryGate {
  return reports.reduce(reduceDeliveryGate, INITIAL_DELIVERY_GATE);
}
