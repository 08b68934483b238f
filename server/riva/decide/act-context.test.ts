import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { sha256Of } from "@/server/model/context/text";
import { decomposedRun, sequence } from "@/testing/events/events";
import { compressionEvent, sameAsLast } from "./act-compression";
import { actContext, actContextInput } from "./act-context";

const runId = "run-1";

function attempt(
  intentionId: string,
  cycleId: string,
  index: number,
  exitCode: number,
  output = "out",
): EventInput[] {
  return [
    {
      type: "cycle-started",
      runId,
      intentionId,
      cycleId,
      index,
      thought: `thought of ${cycleId}`,
      action: { type: "COMMAND", content: `cmd-${cycleId}`, target: null },
    },
    {
      type: "cycle-result",
      runId,
      intentionId,
      cycleId,
      exitCode,
      output,
      timedOut: false,
      error: null,
      durationMs: 5,
    },
    {
      type: "cycle-judged",
      runId,
      intentionId,
      cycleId,
      judgment: exitCode === 0 ? "SUCCESS" : "FAILURE",
      judgedBy: "auto",
      reason: `exit code ${exitCode}`,
    },
  ];
}

/** root split into c1 and c2 (approved by Ada); c1 verified; c2 failed `failures` times. */
function world(failures: number, extra: EventInput[] = []) {
  const bodies: EventInput[] = [
    ...decomposedRun(runId),
    ...attempt("c1", "c1-1", 0, 0),
    { type: "intention-status-changed", runId, intentionId: "c1", status: "VERIFIED", reason: "exit code 0" },
  ];
  for (let index = 0; index < failures; index++)
    bodies.push(...attempt("c2", `c2-${index + 1}`, index, 1, `FAIL ${"x".repeat(400)} case ${index + 1}`));
  return foldEvents(sequence([...bodies, ...extra]));
}

describe("actContextInput: the view → the builder's input", () => {
  it("reads the chain root → current with the approved split, the verified sibling and the attempts", () => {
    const view = world(2);
    const c2 = view.intentions.c2;
    if (!c2) throw new Error("no c2");
    const input = actContextInput(view, c2, "branch arbor/x");
    expect(input.intentionChain).toEqual([
      {
        id: "root",
        what: "run `a` and run `b`",
        acceptance: "all done",
        decisions: ["split into 2 parts, approved by Ada: run `a`; run `b`"],
      },
      { id: "c2", what: "run `b`", acceptance: "b exits 0", decisions: [] },
    ]);
    expect(input.finishedSubtrees).toEqual([
      {
        id: "c1",
        what: "run `a`",
        verifiedBy: "exit code 0",
        detail: "- run `a` — last action: cmd-c1-1 → SUCCESS",
      },
    ]);
    expect(input.attempts.map((entry) => [entry.id, entry.cycle, entry.action, entry.judgment])).toEqual([
      ["c2-1", 1, "cmd-c2-1", "FAILURE"],
      ["c2-2", 2, "cmd-c2-2", "FAILURE"],
    ]);
    expect(input.attempts[0]?.tier).toBeUndefined();
    expect(input.repoContext).toBe("branch arbor/x");
    expect(input.restored).toEqual([]);
  });

  it("says when the person edited the split they approved", () => {
    const view = world(0);
    const approval = view.approvals.ap1;
    if (!approval) throw new Error("no approval");
    approval.children = [
      { what: "run `a` quickly", acceptance: "a exits 0", ownedScope: [] },
      { what: "run `b`", acceptance: "b exits 0", ownedScope: [] },
    ];
    const root = view.intentions.root;
    if (!root) throw new Error("no root");
    expect(actContextInput(view, root, "").intentionChain[0]?.decisions[0]).toMatch(
      /approved by Ada, edited:/,
    );
  });

  it("builds a body whose chain is root → child, marking the current intention", () => {
    const view = world(1);
    const c2 = view.intentions.c2;
    if (!c2) throw new Error("no c2");
    const { body } = actContext(view, c2, "");
    expect(body).toContain(
      "1. run `a` and run `b`\n   Acceptance: all done\n   Approved decisions: split into 2 parts",
    );
    expect(body).toContain("2. run `b` ← current\n   Acceptance: b exits 0");
    expect(body).toContain("- ✓ run `a` — verified: exit code 0");
    expect(body).toContain("#1 FAILURE: cmd-c2-1 → FAIL");
  });
});

describe("compressionEvent: one per news, none for the same set", () => {
  it("records what was dropped, with labels and triggers, and not again when nothing changed", () => {
    const view = world(2);
    const c2 = view.intentions.c2;
    if (!c2) throw new Error("no c2");
    const first = compressionEvent(runId, c2, actContext(view, c2, "").record);
    expect(first).toMatchObject({
      type: "context-compressed",
      intentionId: "c2",
      stage: "act",
      triggers: ["history_cap"],
      omitted: 0,
      shortened: 2,
      collapsed: 1,
    });
    expect(
      first?.type === "context-compressed" && first.dropped.map((item) => [item.item, item.id, item.label]),
    ).toEqual([
      ["finished_subtree", "c1", "✓ run `a`"],
      ["attempt", "c2-1", "attempt 1: cmd-c2-1 → FAILURE"],
      ["attempt", "c2-2", "attempt 2: cmd-c2-2 → FAILURE"],
    ]);
    if (!first) throw new Error("no event");
    const after = world(2, [first]);
    const c2After = after.intentions.c2;
    if (!c2After) throw new Error("no c2");
    const again = actContext(after, c2After, "").record;
    expect(sameAsLast(c2After, again)).toBe(true);
    expect(compressionEvent(runId, c2After, again)).toBeNull();
    // A new attempt is news: a new event.
    const third = world(3, [first]);
    const c2Third = third.intentions.c2;
    if (!c2Third) throw new Error("no c2");
    expect(compressionEvent(runId, c2Third, actContext(third, c2Third, "").record)).not.toBeNull();
  });

  it("records nothing when nothing was dropped", () => {
    const view = world(0);
    const c1 = view.intentions.c1;
    if (!c1) throw new Error("no c1");
    expect(
      compressionEvent(runId, { ...c1, id: "c1" }, { triggers: [], dropped: [], keptChars: 10 }),
    ).toBeNull();
  });

  it("a restore puts the attempt back under the person's name, and the next record no longer lists it", () => {
    const view = world(2);
    const c2 = view.intentions.c2;
    if (!c2) throw new Error("no c2");
    const first = compressionEvent(runId, c2, actContext(view, c2, "").record);
    if (!first) throw new Error("no event");
    const restored: EventInput = {
      type: "context-restored",
      runId,
      intentionId: "c2",
      restored: { item: "attempt", id: "c2-1", sha256: sha256Of({}), label: "attempt 1: cmd-c2-1 → FAILURE" },
      restoredBy: { userId: "u", name: "Ada" },
    };
    const after = world(2, [first, restored]);
    const c2After = after.intentions.c2;
    if (!c2After) throw new Error("no c2");
    const built = actContext(after, c2After, "");
    expect(built.body).toContain(
      "## Restored by Ada (in full, as a person asked)\n\n### attempt 1: cmd-c2-1 → FAILURE",
    );
    expect(built.body).toContain("Thought: thought of c2-1\nAction: cmd-c2-1\nResult:\nFAIL");
    expect(built.record.dropped.map((item) => item.id)).toEqual(["c1", "c2-2"]);
    const next = compressionEvent(runId, c2After, built.record);
    expect(next?.type === "context-compressed" && next.dropped.map((item) => item.id)).toEqual([
      "c1",
      "c2-2",
    ]);
  });
});
