import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { decomposedRun, sequence } from "@/testing/events/events";
import { deliveryInputFor, deliveryVerdict, MAX_OUTCOME_LINES } from "./delivery";

const status = (intentionId: string, to: "VERIFIED" | "FAILED", reason: string): EventInput => ({
  type: "intention-status-changed",
  runId: "run-1",
  intentionId,
  status: to,
  reason,
});

describe("deliveryVerdict: verification is authoritative for DONE", () => {
  const done = { state: "DONE" as const, reason: "all there", missing: [] };
  const needsWork = { state: "NEEDS_WORK" as const, reason: "no README", missing: ["a README"] };

  it("takes the model's DONE about a verified root", () => {
    expect(deliveryVerdict("VERIFIED", done)).toEqual({
      state: "DONE",
      reason: "all there",
      modelState: "DONE",
      missing: [],
    });
  });

  it("records a DONE about a root that did not verify as NEEDS_WORK, keeping the model's answer", () => {
    expect(deliveryVerdict("FAILED", done)).toEqual({
      state: "NEEDS_WORK",
      reason: "The model judged it delivered, but the request did not verify (FAILED): all there",
      modelState: "DONE",
      missing: [],
    });
  });

  it("records a NEEDS_WORK as said, with what is missing (the gate decides whether it moves)", () => {
    for (const root of ["VERIFIED", "FAILED"])
      expect(deliveryVerdict(root, needsWork)).toEqual({
        state: "NEEDS_WORK",
        reason: "no README",
        modelState: "NEEDS_WORK",
        missing: ["a README"],
      });
  });
});

describe("deliveryInputFor: what the check reads", () => {
  it("lists the tree root first with each status and its verified-by line, and the QA verdicts", () => {
    const view = foldEvents(
      sequence([
        ...decomposedRun(),
        status("c1", "VERIFIED", "contract: the command `a` exits 0 passed"),
        status("c2", "FAILED", "the command `b` exited 2"),
        status("root", "FAILED", "child 2 failed"),
        {
          type: "qa-reported",
          runId: "run-1",
          intentionId: "c1",
          reviewId: "q1",
          modelId: "fake",
          offline: false,
          report: { verdict: "concerns", summary: "Works, but untested.", findings: [] },
        },
      ]),
    );
    const root = view.intentions.root;
    if (!root) throw new Error("no root");
    const input = deliveryInputFor(view, root);
    expect(input.task).toBe(root.what);
    expect(input.rootStatus).toBe("FAILED");
    expect(input.outcome[0]).toMatch(/^FAILED: .* — child 2 failed$/);
    expect(input.outcome.slice(1)).toEqual([
      expect.stringMatching(/^ {2}VERIFIED: .* — contract: the command `a` exits 0 passed$/),
      expect.stringMatching(/^ {2}FAILED: .* — the command `b` exited 2$/),
    ]);
    expect(input.qa).toEqual([expect.stringMatching(/^concerns on ".*": Works, but untested\.$/)]);
  });

  it("caps the tree's lines however many intentions there are", () => {
    const children = Array.from({ length: 40 }, (_, index) => ({ what: `step ${index}`, acceptance: "" }));
    const events: EventInput[] = [
      ...decomposedRun(),
      ...children.map(
        (child, index): EventInput => ({
          type: "intention-created",
          runId: "run-1",
          intentionId: `x${index}`,
          parentId: "c1",
          what: child.what,
          acceptance: child.acceptance,
          depth: 2,
          position: index,
        }),
      ),
    ];
    const view = foldEvents(sequence(events));
    const root = view.intentions.root;
    if (!root) throw new Error("no root");
    const { outcome } = deliveryInputFor(view, root);
    expect(outcome).toHaveLength(MAX_OUTCOME_LINES + 1);
    expect(outcome.at(-1)).toMatch(/^… and \d+ more intentions$/);
  });
});
