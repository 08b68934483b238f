import { describe, expect, it } from "vitest";
import { newArrivals, sessionOfPath } from "./new-arrivals";

const a = { approvalId: "a", sessionId: "s1" };
const b = { approvalId: "b", sessionId: "s2" };
const c = { approvalId: "c", sessionId: "s1" };
const away = { sessionId: null, pageVisible: true };

describe("newArrivals", () => {
  it("notifies nothing on the first look", () => {
    const first = newArrivals(null, [a, b], away);
    expect(first.notify).toEqual([]);
    expect([...first.seen]).toEqual(["a", "b"]);
  });

  it("notifies each new approval once", () => {
    const first = newArrivals(null, [a], away);
    const second = newArrivals(first.seen, [a, b], away);
    expect(second.notify).toEqual([b]);
    expect(newArrivals(second.seen, [a, b], away).notify).toEqual([]);
  });

  it("stays quiet about the session on screen, but not when the page is hidden", () => {
    const seen = new Set(["a"]);
    expect(newArrivals(seen, [a, c], { sessionId: "s1", pageVisible: true }).notify).toEqual([]);
    expect(newArrivals(seen, [a, c], { sessionId: "s1", pageVisible: false }).notify).toEqual([c]);
    expect(newArrivals(seen, [a, b], { sessionId: "s1", pageVisible: true }).notify).toEqual([b]);
  });

  it("does not notify an approval again after it was answered and another arrived", () => {
    const seen = newArrivals(null, [a], away).seen;
    const after = newArrivals(seen, [b], away);
    expect(after.notify).toEqual([b]);
    expect(newArrivals(after.seen, [a, b], away).notify).toEqual([]);
  });
});

describe("sessionOfPath", () => {
  it("finds the session of a session or replay page", () => {
    expect(sessionOfPath("/projects/p/sessions/s9")).toBe("s9");
    expect(sessionOfPath("/projects/p/sessions/s9/replay")).toBe("s9");
    expect(sessionOfPath("/projects/p")).toBeNull();
  });
});
