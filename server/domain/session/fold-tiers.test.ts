import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { decomposedRun, sequence } from "@/testing/events/events";
import { foldEvents } from "./fold";
import { tierIndexOf, tierNameOfCycle } from "./fold-tiers";

const ref = (index: number, name: string) => ({
  index,
  name,
  provider: "openai-compatible",
  model: `${name}-m`,
});

const escalated = (from: [number, string], to: [number, string]): EventInput => ({
  type: "tier-escalated",
  runId: "run-1",
  intentionId: "c1",
  from: ref(...from),
  to: ref(...to),
  rule: "2 failed cycles",
  reason: `tier ${from[1]}: 2 failed cycles; escalating to ${to[1]}`,
});

function cycleOn(cycleId: string): EventInput[] {
  return [
    {
      type: "llm-called",
      runId: "run-1",
      intentionId: "c1",
      stage: "act",
      modelId: "m",
      offline: false,
      tokensIn: 100,
      tokensOut: 20,
      latencyMs: 1,
      error: null,
      costUsd: 0.01,
    },
    {
      type: "cycle-started",
      runId: "run-1",
      intentionId: "c1",
      cycleId,
      index: 0,
      thought: "",
      action: { type: "COMMAND", content: "false" },
    },
  ];
}

describe("fold of tier and compression events", () => {
  it("records the run's tiers, and each intention starts on tier 0", () => {
    const view = foldEvents(
      sequence([
        ...decomposedRun(),
        {
          type: "tiers-configured",
          runId: "run-1",
          escalation: "escalate-then-decompose",
          tiers: [ref(0, "fast"), ref(1, "strong")],
        },
      ]),
    );
    // Older logs name no mode: their tiers read as simple, with no roles and no Chaos.
    expect(view.runs["run-1"]?.tiers).toEqual({
      escalation: "escalate-then-decompose",
      tiers: [ref(0, "fast"), ref(1, "strong")].map((tier) => ({
        ...tier,
        mode: "simple",
        roles: {},
        chaos: false,
      })),
    });
    expect(view.intentions.c1?.tier).toBeNull();
    expect(view.intentions.c1 && tierIndexOf(view.intentions.c1)).toBe(0);
  });

  it("an escalation moves the intention and remembers where each tier began, so a restart continues there", () => {
    const bodies = [
      ...decomposedRun(),
      ...cycleOn("a"),
      ...cycleOn("b"),
      escalated([0, "fast"], [1, "strong"]),
      ...cycleOn("c"),
      escalated([1, "strong"], [2, "strongest"]),
    ];
    const view = foldEvents(sequence(bodies));
    const c1 = view.intentions.c1;
    expect(c1?.tier).toEqual({
      index: 2,
      name: "strongest",
      since: { cycles: 3, tokens: 360, costUsd: expect.closeTo(0.03) },
      earlier: [
        { index: 0, name: "fast", fromCycle: 0 },
        { index: 1, name: "strong", fromCycle: 2 },
      ],
      reason: "tier strong: 2 failed cycles; escalating to strongest",
    });
    if (!c1) throw new Error("no c1");
    expect([0, 1, 2, 3].map((cycle) => tierNameOfCycle(c1, cycle, "fast"))).toEqual([
      "fast",
      "fast",
      "strong",
      "strongest",
    ]);
    // Folding in two halves (a reader that reconnects mid-run) gives the same tier.
    const half = foldEvents(sequence(bodies).slice(0, 12));
    expect(foldEvents(sequence(bodies).slice(12), half).intentions.c1?.tier).toEqual(c1.tier);
  });

  it("keeps the latest compression of an intention's request for the node", () => {
    const view = foldEvents(
      sequence([
        ...decomposedRun(),
        {
          type: "context-compressed",
          runId: "run-1",
          intentionId: "c1",
          stage: "act",
          omitted: 3,
          shortened: 6,
          keptChars: 1200,
          dropped: [{ item: "attempt", id: "a", how: "omitted", sha256: "a".repeat(64), chars: 80 }],
        },
      ]),
    );
    expect(view.intentions.c1?.compressed).toEqual({
      omitted: 3,
      shortened: 6,
      collapsed: 0,
      keptChars: 1200,
      triggers: [],
      dropped: [{ item: "attempt", id: "a", how: "omitted", sha256: "a".repeat(64), chars: 80 }],
    });
  });

  it("keeps what people restored on the intention, once per item, and never on another intention", () => {
    const restore = (itemId: string, name: string): EventInput => ({
      type: "context-restored",
      runId: "run-1",
      intentionId: "c1",
      restored: { item: "attempt", id: itemId, sha256: "b".repeat(64), label: `attempt: ${itemId}` },
      restoredBy: { userId: `u-${name}`, name },
    });
    const view = foldEvents(
      sequence([...decomposedRun(), restore("cy1", "Ada"), restore("cy1", "Bob"), restore("cy2", "Bob")]),
    );
    expect(view.intentions.c1?.restored).toEqual([
      { id: "cy1", item: "attempt", label: "attempt: cy1", sha256: "b".repeat(64), by: "Ada" },
      { id: "cy2", item: "attempt", label: "attempt: cy2", sha256: "b".repeat(64), by: "Bob" },
    ]);
    expect(view.intentions.c2?.restored).toEqual([]);
    expect(view.intentions.root?.restored).toEqual([]);
  });

  it("refuses a compressed item of a kind the builder does not drop", () => {
    expect(() =>
      sequence([
        {
          type: "context-compressed",
          runId: "run-1",
          intentionId: "c1",
          stage: "act",
          omitted: 1,
          shortened: 0,
          keptChars: 1,
          // @ts-expect-error: not one of CONTEXT_ITEM_KINDS
          dropped: [{ item: "secret", how: "omitted", sha256: "a".repeat(64), chars: 1 }],
        },
      ]),
    ).toThrow();
  });

  it("refuses a compression record whose hash is not a SHA-256", () => {
    expect(() =>
      sequence([
        {
          type: "context-compressed",
          runId: "run-1",
          intentionId: "c1",
          stage: "act",
          omitted: 1,
          shortened: 0,
          keptChars: 1,
          dropped: [{ item: "attempt", how: "omitted", sha256: "not-a-hash", chars: 1 }],
        },
      ]),
    ).toThrow();
  });
});
