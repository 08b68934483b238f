import { describe, expect, it } from "vitest";
import { EventBody, StoredEvent } from "./schema";

describe("EventBody", () => {
  it("accepts a well-formed event and fills defaults", () => {
    const parsed = EventBody.parse({
      type: "cycle-started",
      runId: "r",
      intentionId: "i",
      cycleId: "c",
      index: 0,
      thought: "list files",
      action: { type: "COMMAND", content: "ls" },
    });
    expect(parsed).toMatchObject({
      type: "cycle-started",
      action: { type: "COMMAND", content: "ls", target: null },
    });
  });

  it("refuses an unknown event type", () => {
    expect(EventBody.safeParse({ type: "run-exploded", runId: "r" }).success).toBe(false);
  });

  it("refuses an invalid status inside a known type", () => {
    const result = EventBody.safeParse({
      type: "intention-status-changed",
      runId: "r",
      intentionId: "i",
      status: "DONE",
      reason: null,
    });
    expect(result.success).toBe(false);
  });

  it("refuses an action type the seed does not define", () => {
    const result = EventBody.safeParse({
      type: "cycle-started",
      runId: "r",
      intentionId: "i",
      cycleId: "c",
      index: 0,
      thought: "",
      action: { type: "TELEPORT", content: "" },
    });
    expect(result.success).toBe(false);
  });

  it("round-trips through JSON unchanged", () => {
    const event = StoredEvent.parse({
      seq: 3,
      at: "2026-11-22T00:00:00.000Z",
      body: { type: "run-ended", runId: "r", status: "FAILED", reason: "child 1 failed" },
    });
    expect(StoredEvent.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it("requires a positive sequence number", () => {
    const body = { type: "run-ended", runId: "r", status: "VERIFIED", reason: "ok" };
    expect(StoredEvent.safeParse({ seq: 0, at: "x", body }).success).toBe(false);
  });
});
