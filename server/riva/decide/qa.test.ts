import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import { cycle, decomposedRun, sequence } from "@/testing/events/events";
import { nextStep } from "./next-step";
import { QA_NOTES_CAP, type QaSettings, qaInputFor, qaNotesFor } from "./qa";

const ON: QaSettings = { qaReview: "on", qaFeedback: true };
const OFF: QaSettings = { qaReview: "off", qaFeedback: false };
const step = (bodies: EventInput[], qa: QaSettings) =>
  nextStep(foldEvents(sequence(bodies)), "run-1", {
    limits: DEFAULT_LIMITS,
    now: Date.UTC(2026, 10, 22, 0, 1),
    qa,
  });

const verified = (intentionId: string): EventInput => ({
  type: "intention-status-changed",
  runId: "run-1",
  intentionId,
  status: "VERIFIED",
  reason: "exit code 0",
});
const review = (intentionId: string, runId = "run-1", verdict: "pass" | "fail" = "fail"): EventInput => ({
  type: "qa-reported",
  runId,
  intentionId,
  reviewId: `r-${intentionId}`,
  modelId: "fake",
  offline: false,
  report: {
    verdict,
    summary: "summary",
    findings: [
      { severity: "medium", file: "src/a.ts", message: "`a` prints nothing", suggestion: "print something" },
      { severity: "info", file: null, message: "took one attempt", suggestion: null },
    ],
  },
});
const firstChildDone = [...decomposedRun(), ...cycle("run-1", "c1", "y1", 0), verified("c1")];

describe("advisory QA in the transition", () => {
  it("reviews a verified child before its next sibling starts, once", () => {
    expect(step(firstChildDone, ON)).toMatchObject({ kind: "qa-review", intention: { id: "c1" } });
    expect(step([...firstChildDone, review("c1")], ON)).toMatchObject({
      kind: "plan",
      intention: { id: "c2" },
    });
  });

  it("does nothing of the sort when QA is off", () => {
    expect(step(firstChildDone, OFF)).toMatchObject({ kind: "plan", intention: { id: "c2" } });
  });

  it("out of working time, the advisory steps (QA review, delivery check) are skipped: the outcome is decided", () => {
    const allDone = [
      ...firstChildDone,
      review("c1"),
      ...cycle("run-1", "c2", "y2", 0),
      verified("c2"),
      review("c2"),
      verified("root"),
    ];
    const reported: EventInput = {
      type: "delivery-reported",
      runId: "run-1",
      state: "DONE",
      source: "verification",
      reason: "ok",
    };
    const late = (bodies: EventInput[]) =>
      nextStep(foldEvents(sequence(bodies)), "run-1", {
        limits: { ...DEFAULT_LIMITS, wallClockMs: 1_000 },
        now: Date.UTC(2026, 10, 22, 1, 0),
        qa: ON,
      });
    // The verification still reports (no model call), then the run ends with the root's outcome.
    expect(late(allDone)).toMatchObject({ kind: "report-delivery" });
    expect(late([...allDone, reported])).toMatchObject({ kind: "end", status: "VERIFIED" });
  });

  it("a QA fail changes no status: the next sibling is worked as if it passed", () => {
    const view = foldEvents(sequence([...firstChildDone, review("c1", "run-1", "fail")]));
    expect(view.intentions.c1?.status).toBe("VERIFIED");
    expect(step([...firstChildDone, review("c1", "run-1", "fail")], ON)).toMatchObject({ kind: "plan" });
  });

  it("before the run ends: the verification reports DONE, then the root is reviewed, then the run ends", () => {
    const allDone = [
      ...firstChildDone,
      review("c1"),
      ...cycle("run-1", "c2", "y2", 0),
      verified("c2"),
      review("c2"),
      verified("root"),
    ];
    expect(step(allDone, ON)).toMatchObject({
      kind: "report-delivery",
      state: "DONE",
      intention: { id: "root" },
    });
    const reported: EventInput = {
      type: "delivery-reported",
      runId: "run-1",
      state: "DONE",
      source: "verification",
      reason: "ok",
    };
    expect(step([...allDone, reported], ON)).toMatchObject({ kind: "qa-review", intention: { id: "root" } });
    // After the review, the delivery check (once), then the end.
    expect(step([...allDone, reported, review("root")], ON)).toMatchObject({
      kind: "delivery-check",
      intention: { id: "root" },
    });
    const checked: EventInput = {
      type: "delivery-reported",
      runId: "run-1",
      state: "NEEDS_WORK",
      source: "delivery_check",
      reason: "the model disagrees",
      modelState: "NEEDS_WORK",
      missing: ["a README"],
    };
    expect(step([...allDone, reported, review("root"), checked], ON)).toMatchObject({
      kind: "end",
      status: "VERIFIED",
    });
    expect(step([...allDone, reported], OFF)).toMatchObject({ kind: "delivery-check" });
    expect(step([...allDone, reported, checked], OFF)).toMatchObject({ kind: "end", status: "VERIFIED" });
  });

  it("a failed root reports NEEDS_WORK to the gate", () => {
    const failed: EventInput = {
      type: "intention-status-changed",
      runId: "run-1",
      intentionId: "root",
      status: "FAILED",
      reason: "child 2 failed",
    };
    expect(step([...firstChildDone, failed], OFF)).toMatchObject({
      kind: "report-delivery",
      state: "NEEDS_WORK",
    });
  });
});

describe("what QA reads and what it says back", () => {
  it("gives the reviewer the intention, its outcome and its cycles, counted", () => {
    const view = foldEvents(sequence([...firstChildDone]));
    const c1 = view.intentions.c1;
    if (!c1) throw new Error("no c1");
    expect(qaInputFor(view, c1)).toMatchObject({
      task: "run `a` and run `b`",
      what: "run `a`",
      outcome: "VERIFIED: exit code 0",
      attempts: { total: 1, missed: 0 },
      criteria: { total: 0, passed: 0 },
      work: [expect.stringContaining("SUCCESS")],
    });
  });

  it("feeds findings to a sibling only when the project says so, without info notes", () => {
    const view = foldEvents(sequence([...firstChildDone, review("c1")]));
    const c2 = view.intentions.c2;
    if (!c2) throw new Error("no c2");
    const notes = qaNotesFor(view, c2, ON);
    expect(notes).toContain('on "run `a`" (fail)');
    expect(notes).toContain("medium src/a.ts: `a` prints nothing (suggestion: print something)");
    expect(notes).not.toContain("took one attempt");
    expect(qaNotesFor(view, c2, { ...ON, qaFeedback: false })).toBeUndefined();
  });

  it("feeds the previous run's root review to a retried task, capped", () => {
    const long = "x".repeat(900);
    const bodies: EventInput[] = [
      {
        type: "run-started",
        runId: "run-0",
        task: "t",
        mode: "agent",
        model: { id: "m", label: "m", offline: true },
      },
      {
        type: "intention-created",
        runId: "run-0",
        intentionId: "old-root",
        parentId: null,
        what: "t",
        acceptance: "",
        depth: 0,
        position: 0,
      },
      {
        ...review("old-root", "run-0"),
        report: {
          verdict: "fail",
          summary: "s",
          findings: [1, 2, 3].map(() => ({ severity: "high", file: null, message: long, suggestion: null })),
        },
      } as EventInput,
      ...decomposedRun(),
    ];
    const view = foldEvents(sequence(bodies));
    const c1 = view.intentions.c1;
    if (!c1) throw new Error("no c1");
    const notes = qaNotesFor(view, c1, ON) ?? "";
    expect(notes.length).toBe(QA_NOTES_CAP);
    expect(notes.startsWith('- on "t" (fail):')).toBe(true);
  });
});
