import { describe, expect, it } from "vitest";
import type { QaReportInput } from "@/server/domain/events/bodies/qa";
import type { EventInput } from "@/server/domain/events/schema";
import { decomposedRun, sequence } from "@/testing/events/events";
import { foldEvents } from "./fold";

type QaBody = Extract<EventInput, { type: "qa-reported" }>;
type DeliveryBody = Extract<EventInput, { type: "delivery-reported" }>;

const qa = (
  intentionId: string,
  verdict: QaReportInput["verdict"],
  reviewId = `r-${intentionId}`,
): QaBody => ({
  type: "qa-reported",
  runId: "run-1",
  intentionId,
  reviewId,
  modelId: "fake",
  offline: false,
  report: {
    verdict,
    summary: `QA says ${verdict}`,
    findings: [{ severity: "high", file: "src/a.ts", message: "it is wrong", suggestion: "fix it" }],
  },
  tools: ["fs.read", "git.diff"],
});
const delivery = (
  state: "DONE" | "NEEDS_WORK",
  source: DeliveryBody["source"] = "verification",
): DeliveryBody => ({
  type: "delivery-reported",
  runId: "run-1",
  state,
  source,
  reason: `${source} said ${state}`,
});
const verified = (intentionId: string): EventInput => ({
  type: "intention-status-changed",
  runId: "run-1",
  intentionId,
  status: "VERIFIED",
  reason: "ok",
});

describe("the QA and delivery fold", () => {
  it("puts a QA report on its node and changes no status", () => {
    const view = foldEvents(sequence([...decomposedRun(), verified("c1"), qa("c1", "fail")]));
    expect(view.intentions.c1?.status).toBe("VERIFIED");
    expect(view.intentions.c1?.qaReports).toEqual([
      expect.objectContaining({
        reviewId: "r-c1",
        report: expect.objectContaining({ verdict: "fail", summary: "QA says fail" }),
        tools: ["fs.read", "git.diff"],
      }),
    ]);
    expect(view.intentions.c2?.qaReports).toEqual([]);
    expect(view.runs["run-1"]?.status).toBe("RUNNING");
  });

  it("never lets QA move the gate: a QA pass alone leaves it NEEDS_WORK", () => {
    const view = foldEvents(sequence([...decomposedRun(), qa("c1", "pass")]));
    expect(view.runs["run-1"]?.delivery).toEqual({ status: "NEEDS_WORK", reports: 1 });
    expect(view.runs["run-1"]?.deliveryReports).toEqual([
      expect.objectContaining({ source: "qa_review", state: "DONE", moved: false }),
    ]);
  });

  it("keeps DONE after a later QA fail, a NEEDS_WORK and a retried answer", () => {
    const view = foldEvents(
      sequence([
        ...decomposedRun(),
        delivery("DONE"),
        qa("root", "fail"),
        delivery("NEEDS_WORK"),
        delivery("NEEDS_WORK", "delivery_check"),
        delivery("NEEDS_WORK", "final_retry"),
      ]),
    );
    const run = view.runs["run-1"];
    expect(run?.delivery).toMatchObject({
      status: "DONE",
      doneBy: "verification",
      reason: "verification said DONE",
    });
    expect(run?.deliveryReports.map((report) => [report.source, report.state, report.moved])).toEqual([
      ["verification", "DONE", true],
      ["qa_review", "NEEDS_WORK", false],
      ["verification", "NEEDS_WORK", false],
      ["delivery_check", "NEEDS_WORK", false],
      ["final_retry", "NEEDS_WORK", false],
    ]);
    expect(view.intentions.root?.qaReports[0]?.report?.verdict).toBe("fail");
  });

  it("records a review that could not be made, with its error and no report", () => {
    const failed: QaBody = { ...qa("c1", "pass"), report: null, error: "the model timed out" };
    const view = foldEvents(sequence([...decomposedRun(), failed]));
    expect(view.intentions.c1?.qaReports[0]).toMatchObject({ report: null, error: "the model timed out" });
    expect(view.runs["run-1"]?.deliveryReports).toEqual([]);
  });

  it("refuses a report that breaks the schema (a verdict outside pass/concerns/fail)", () => {
    const bad = {
      ...qa("c1", "pass"),
      report: { verdict: "great", summary: "x", findings: [] },
    } as unknown as EventInput;
    expect(() => sequence([bad])).toThrow();
  });
});
