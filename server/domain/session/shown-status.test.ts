import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { decomposedRun, sequence } from "@/testing/events/events";
import { foldEvents } from "./fold";
import { shownIntentionStatus, shownRunFacts, shownRunStatus } from "./shown-status";

const status = (intentionId: string, value: "ACTIVE" | "VERIFIED" | "FAILED", reason: string | null = null) =>
  ({ type: "intention-status-changed", runId: "run-1", intentionId, status: value, reason }) as const;

function shown(bodies: EventInput[]) {
  const view = foldEvents(sequence(bodies));
  const run = view.runs["run-1"];
  if (!run) throw new Error("no run");
  const node = (id: string) => {
    const intention = view.intentions[id];
    if (!intention) throw new Error(`no intention ${id}`);
    return shownIntentionStatus(view, intention, run);
  };
  return { run: shownRunStatus(view, run), node };
}

describe("the shown status of runs and nodes", () => {
  const run = decomposedRun();

  it("reads WORKING while the run goes and WAITING while a card waits for a person", () => {
    const waiting = shown(run.slice(0, 7));
    expect(waiting.run).toBe("WAITING");
    expect(waiting.node("root")).toBe("WAITING");
    const working = shown([...run, status("c1", "ACTIVE")]);
    expect(working.run).toBe("WORKING");
    expect(working.node("c1")).toBe("WORKING");
    expect(working.node("c2")).toBe("PENDING");
  });

  it("shows STOPPED on the nodes a stop cut, and NOT_STARTED on the ones it never reached", () => {
    const stopped = shown([
      ...run,
      status("c1", "ACTIVE"),
      status("c1", "FAILED", "stopped by Ada"),
      status("root", "FAILED", "stopped by Ada"),
      { type: "run-ended", runId: "run-1", status: "STOPPED", reason: "stopped by Ada" },
    ]);
    expect(stopped.run).toBe("STOPPED");
    expect(stopped.node("root")).toBe("STOPPED");
    expect(stopped.node("c1")).toBe("STOPPED");
    expect(stopped.node("c2")).toBe("NOT_STARTED");
  });

  it("keeps FAILED for a node that failed on its own before a stop, and NOT_STARTED after a failure", () => {
    const failed = shown([
      ...run,
      status("c1", "ACTIVE"),
      status("c1", "FAILED", "exit code 3"),
      status("root", "FAILED", "child 1 failed: exit code 3"),
      { type: "run-ended", runId: "run-1", status: "FAILED", reason: "child 1 failed: exit code 3" },
    ]);
    expect(failed.run).toBe("FAILED");
    expect(failed.node("root")).toBe("FAILED");
    expect(failed.node("c1")).toBe("FAILED");
    expect(failed.node("c2")).toBe("NOT_STARTED");
  });

  it("never shows VERIFIED for a node the engine did not verify", () => {
    const verified = shown([
      ...run,
      status("c1", "VERIFIED"),
      { type: "run-ended", runId: "run-1", status: "VERIFIED", reason: "done" },
    ]);
    expect(verified.node("c1")).toBe("VERIFIED");
    expect(verified.node("root")).toBe("FAILED");
    expect(verified.node("c2")).toBe("NOT_STARTED");
  });

  it("shows an answer as ANSWERED, even one stored VERIFIED before ANSWERED existed", () => {
    expect(shownRunFacts({ status: "VERIFIED", answer: true, waiting: false })).toBe("ANSWERED");
    expect(shownRunFacts({ status: "ANSWERED", answer: true, waiting: false })).toBe("ANSWERED");
    expect(shownRunFacts({ status: "FAILED", answer: true, waiting: false })).toBe("FAILED");
    expect(shownRunFacts({ status: "VERIFIED", answer: false, waiting: false })).toBe("VERIFIED");
    expect(shownRunFacts({ status: "RUNNING", answer: false, waiting: true })).toBe("WAITING");
  });
});
