import { describe, expect, it } from "vitest";
import { sequence } from "@/testing/events/events";
import { foldEvents } from "./fold";

const alice = { userId: "u1", name: "Alice" };

describe("the terminal in the folded view", () => {
  it("is open from terminal-opened until its own terminal-closed", () => {
    const opened = foldEvents(
      sequence([
        { type: "terminal-opened", terminalId: "t1", by: alice },
        { type: "terminal-typed", terminalId: "t1", by: alice },
      ]),
    );
    expect(opened.terminal).toEqual({ id: "t1", openedBy: "Alice" });
    const closed = foldEvents(
      sequence([
        { type: "terminal-opened", terminalId: "t1", by: alice },
        { type: "terminal-closed", terminalId: "t1", reason: "exited", exitCode: 0 },
      ]),
    );
    expect(closed.terminal).toBeNull();
  });

  it("ignores the close of an earlier terminal once a newer one is open", () => {
    const view = foldEvents(
      sequence([
        { type: "terminal-opened", terminalId: "t1", by: alice },
        { type: "terminal-opened", terminalId: "t2", by: { userId: "u2", name: "Bob" } },
        { type: "terminal-closed", terminalId: "t1", reason: "idle" },
      ]),
    );
    expect(view.terminal).toEqual({ id: "t2", openedBy: "Bob" });
  });
});
