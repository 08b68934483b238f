import type { z } from "zod";
import type { DeliveryReportedBody, QaReportedBody } from "@/server/domain/events/bodies/qa";
import {
  type DeliveryReport,
  INITIAL_DELIVERY_GATE,
  reduceDeliveryGate,
} from "@/server/domain/policy/delivery-gate";
import type {
  DeliveryReportView,
  IntentionQaFields,
  RunDeliveryFields,
  SessionView,
} from "@/server/domain/session/view";

/**
 * The fold of advisory QA and the delivery gate (kept out of fold.ts, which folds everything else).
 * QA reports land on their intention and nowhere else: no status, no answer, no gate moves because of
 * one. Every delivery report goes through the pure `reduceDeliveryGate`, so once an authoritative
 * source said DONE nothing later — a QA "fail", a retried answer, a NEEDS_WORK — can undo it.
 */

/** The fields' starting values, fresh arrays each time (the fold mutates them in place). */
export const NO_QA = {
  intention: (): IntentionQaFields => ({ qaReports: [] }),
  run: (): RunDeliveryFields => ({ delivery: INITIAL_DELIVERY_GATE, deliveryReports: [] }),
};

type QaBody = z.infer<typeof QaReportedBody> | z.infer<typeof DeliveryReportedBody>;

export function foldQaEvent(view: SessionView, body: QaBody, event: { seq: number; at: string }): void {
  const run = view.runs[body.runId];
  switch (body.type) {
    case "qa-reported": {
      view.intentions[body.intentionId]?.qaReports.push({
        reviewId: body.reviewId,
        seq: event.seq,
        at: event.at,
        modelId: body.modelId,
        offline: body.offline,
        report: body.report,
        error: body.error,
        tools: body.tools,
        reads: body.reads,
      });
      // QA speaks to the gate too, but as an advisory source the reducer never lets it move anything.
      if (run && body.report) {
        const state = body.report.verdict === "pass" ? "DONE" : "NEEDS_WORK";
        report(run, { state, source: "qa_review", reason: body.report.summary }, event.seq);
      }
      return;
    }
    case "delivery-reported":
      if (run) report(run, body, event.seq);
      return;
  }
}

type ReportBody = Pick<DeliveryReport, "state" | "source" | "reason"> &
  Partial<Pick<DeliveryReportView, "modelState" | "missing" | "modelId" | "fallback">>;

function report(run: RunDeliveryFields, body: ReportBody, seq: number): void {
  const before = run.delivery;
  const { state, source, reason } = body;
  run.delivery = reduceDeliveryGate(before, { type: "reported", state, source, reason, at: seq });
  const moved = before.status !== run.delivery.status;
  run.deliveryReports.push({
    seq,
    state,
    source,
    reason,
    moved,
    modelState: body.modelState ?? null,
    missing: body.missing ?? [],
    modelId: body.modelId ?? null,
    fallback: body.fallback ?? null,
  });
}

/** Whether the run's delivery check already answered (once per run, before it ends). */
export function deliveryChecked(run: RunDeliveryFields): boolean {
  return run.deliveryReports.some((entry) => entry.source === "delivery_check");
}

/** The delivery check's latest answer, for the run's delivery line; undefined before it ran. */
export function deliveryCheckOf(run: RunDeliveryFields): DeliveryReportView | undefined {
  return run.deliveryReports.findLast((entry) => entry.source === "delivery_check");
}

/** Whether the run's own verification already reported into the gate (the engine reports it once). */
export function verificationReported(run: RunDeliveryFields): boolean {
  return run.deliveryReports.some((entry) => entry.source === "verification");
}
