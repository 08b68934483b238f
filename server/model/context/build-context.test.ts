import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JUDGMENTS } from "@/server/domain/vocabulary/session";
import { type BuildContextInput, buildContext, CONTEXT_LIMITS, type IntentionView } from "./build-context";
import type { AttemptView } from "./failure-summary";
import { sha256Of } from "./text";

const chain: IntentionView[] = [
  { id: "root", what: "Add a /health endpoint with a test", acceptance: "`npm test` exits 0", decisions: [] },
  {
    id: "child",
    what: "Write the route",
    acceptance: "file app/health/route.ts exists",
    decisions: ["use a route handler"],
  },
];
const base: BuildContextInput = {
  intentionChain: chain,
  contract: [{ kind: "FILE_EXISTS", description: "app/health/route.ts exists" }],
  attempts: [],
  repoContext: "Next.js app; tests with vitest.",
  finishedSubtrees: [],
};

describe("buildContext", () => {
  it("lays out the sections in a fixed order and marks the current intention", () => {
    const { body, tokens, record } = buildContext(base);
    expect(body).toBe(
      [
        "## Intention chain (root → current)\n",
        "1. Add a /health endpoint with a test\n   Acceptance: `npm test` exits 0",
        "2. Write the route ← current\n   Acceptance: file app/health/route.ts exists\n   Approved decisions: use a route handler\n",
        "## Contract: how the current intention is checked\n\n- [FILE_EXISTS] app/health/route.ts exists\n",
        "## Repository\n\nNext.js app; tests with vitest.\n",
        "## Finished and verified\n\n(none yet)\n",
        "## Earlier attempts at the current intention\n\nNone: this is the first attempt.",
      ].join("\n"),
    );
    expect(tokens).toBe(Math.ceil(body.length / 4));
    expect(record).toEqual({ triggers: [], dropped: [], keptChars: body.length });
  });

  it("collapses finished subtrees to one verified line each and counts the older ones", () => {
    const finished = Array.from({ length: 25 }, (_, index) => ({
      id: `f${index}`,
      what: `part ${index}\nwith details`,
      verifiedBy: "`npm test` exited 0",
    }));
    const { body, record } = buildContext({
      ...base,
      finishedSubtrees: finished,
      limits: { finishedSubtrees: 20 },
    });
    expect(body).toContain(
      "- ✓ 5 earlier parts verified (not listed)\n- ✓ part 5 with details — verified: `npm test` exited 0",
    );
    expect(body).not.toContain("part 4 ");
    expect(record.triggers).toEqual(["history_cap"]);
    expect(record.dropped.filter((item) => item.how === "omitted").map((item) => item.id)).toEqual([
      "f0",
      "f1",
      "f2",
      "f3",
      "f4",
    ]);
    expect(record.dropped.find((item) => item.id === "f0")?.sha256).toBe(sha256Of(finished[0]));
  });

  it("shortens the repository context and records the original's hash", () => {
    const repoContext = "r".repeat(CONTEXT_LIMITS.repoContextChars + 10);
    const { body, record } = buildContext({ ...base, repoContext });
    expect(body).toContain(`${"r".repeat(CONTEXT_LIMITS.repoContextChars - 1)}…`);
    expect(record.dropped).toEqual([
      {
        item: "repo_context",
        id: "repo-context",
        how: "shortened",
        sha256: sha256Of(repoContext),
        chars: repoContext.length,
        label: "repository context",
      },
    ]);
  });

  it("never drops an intention of the chain, however long", () => {
    const deep = Array.from({ length: 10 }, (_, index) => ({
      id: `i${index}`,
      what: `level ${index} ${"w".repeat(3000)}`,
      acceptance: "a",
      decisions: [],
    }));
    const { body, record } = buildContext({ ...base, intentionChain: deep });
    for (let index = 0; index < 10; index++) expect(body).toContain(`${index + 1}. level ${index} `);
    expect(record.dropped.filter((item) => item.item === "intention")).toHaveLength(10);
  });
});

describe("buildContext, restored items", () => {
  const attempts: AttemptView[] = Array.from({ length: 9 }, (_, index) => ({
    id: `cy${index + 1}`,
    cycle: index + 1,
    thought: `thought ${index + 1}`,
    action: `npm test -- case${index + 1}`,
    result: `exit 1\n${"FAIL ".repeat(100)}`,
    judgment: "FAILURE",
  }));

  it("puts a restored attempt back in full under the person's name, and no longer lists it as dropped", () => {
    const before = buildContext({ ...base, attempts });
    const omitted = before.record.dropped.find((item) => item.id === "cy2");
    expect(omitted).toMatchObject({
      item: "attempt",
      how: "omitted",
      label: "attempt 2: npm test -- case2 → FAILURE",
    });
    expect(before.body).not.toContain("thought 2");

    const after = buildContext({ ...base, attempts, restored: [{ id: "cy2", by: "Ada" }] });
    expect(after.body).toContain(
      "## Restored by Ada (in full, as a person asked)\n\n### attempt 2: npm test -- case2 → FAILURE\n\nAttempt #2: FAILURE\nThought: thought 2\nAction: npm test -- case2\nResult:\nexit 1\nFAIL FAIL",
    );
    expect(after.record.dropped.map((item) => item.id)).not.toContain("cy2");
    expect(after.record.dropped).toHaveLength(before.record.dropped.length - 1);
  });

  it("caps each restored item and ignores an id it does not know, with a note", () => {
    const long = "x".repeat(5000);
    const built = buildContext({
      ...base,
      repoContext: long,
      restored: [
        { id: "repo-context", by: "Ada" },
        { id: "gone", by: "Bob" },
      ],
    });
    const restored = built.body.slice(built.body.indexOf("## Restored by Ada"));
    expect(restored).toContain(`${"x".repeat(CONTEXT_LIMITS.restoredItemChars - 1)}…`);
    expect(restored).not.toContain("x".repeat(CONTEXT_LIMITS.restoredItemChars));
    expect(built.body).toContain("(restored item gone by Bob no longer exists: ignored)");
    expect(built.record.dropped).toEqual([]);
  });

  it("names the token-estimate trigger when the uncapped material is over the threshold", () => {
    expect(buildContext({ ...base, attempts }).record.triggers).toEqual(["history_cap"]);
    expect(buildContext({ ...base, attempts, limits: { maxTokens: 100 } }).record.triggers).toEqual([
      "history_cap",
      "token_estimate",
    ]);
  });

  it("does not count a short attempt's one line as shortened", () => {
    const short: AttemptView = {
      id: "s1",
      cycle: 1,
      action: "ls",
      result: "exit 2",
      judgment: "FAILURE",
      thought: "look",
    };
    expect(buildContext({ ...base, attempts: [short] }).record).toMatchObject({ triggers: [], dropped: [] });
  });
});

const text = (max: number) => fc.string({ maxLength: max });
const attemptArb = fc.record({
  thought: text(200),
  action: text(300),
  result: text(2000),
  judgment: fc.constantFrom(...JUDGMENTS),
  reflection: fc.option(text(300), { nil: undefined }),
});
const historyArb = (tiers: fc.Arbitrary<string | undefined>) =>
  fc
    .array(fc.tuple(attemptArb, tiers), { minLength: 1000, maxLength: 1000 })
    .map((list): AttemptView[] =>
      list.map(([attempt, tier], index) => ({ ...attempt, tier, id: `a${index}`, cycle: index + 1 })),
    );
const inputArb = fc.record({
  intentionChain: fc.array(
    fc.record({
      id: fc.uuid(),
      what: text(400),
      acceptance: text(200),
      decisions: fc.array(text(80), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 10 },
  ),
  contract: fc.array(
    fc.record({ kind: fc.constantFrom("FILE_EXISTS", "TESTS_PASS"), description: text(200) }),
    {
      maxLength: 5,
    },
  ),
  repoContext: text(3000),
  finishedSubtrees: fc.array(fc.record({ id: fc.uuid(), what: text(200), verifiedBy: text(100) }), {
    maxLength: 30,
  }),
});

/** Property runs of hundreds of histories: seconds on a loaded 2-core machine, not the default 5 s. */
const PROPERTY_TIMEOUT_MS = 60_000;

describe("buildContext, as history grows", () => {
  it(
    "stays within 1.2× of its size at 10 attempts for 100 and 1000 attempts",
    () => {
      fc.assert(
        fc.property(inputArb, historyArb(fc.constant("cheap")), (input, history) => {
          const size = (count: number) =>
            buildContext({ ...input, attempts: history.slice(-count) }).body.length;
          const atTen = size(10);
          expect(size(100)).toBeLessThanOrEqual(1.2 * atTen);
          expect(size(1000)).toBeLessThanOrEqual(1.2 * atTen);
        }),
        { numRuns: 30 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    "keeps the failure summary within 4000 characters across tiers, and the chain whole",
    () => {
      const tiers = fc.constantFrom("cheap", "mid", "strong", undefined);
      fc.assert(
        fc.property(inputArb, historyArb(tiers), (input, history) => {
          const { body } = buildContext({ ...input, attempts: history });
          const failures = body.slice(body.indexOf("## Earlier attempts at the current intention\n\n") + 46);
          expect(failures.length).toBeLessThanOrEqual(4000);
          expect(failures.split("\n\n")[0]?.length).toBeLessThanOrEqual(2000);
          input.intentionChain.forEach((_, index) => {
            expect(body).toContain(`\n${index + 1}. `);
          });
        }),
        { numRuns: 30 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe("buildContext with the project's instructions (issue #21.1)", () => {
  const attempts: AttemptView[] = Array.from({ length: 30 }, (_, index) => ({
    id: `a${index}`,
    cycle: index + 1,
    thought: `try ${index} ${"x".repeat(400)}`,
    action: "shell.exec npm test",
    result: "FAIL ".repeat(200),
    judgment: "FAILURE",
  }));
  const finishedSubtrees = Array.from({ length: 20 }, (_, index) => ({
    id: `f${index}`,
    what: `part ${index}`,
    verifiedBy: "`npm test` exited 0",
  }));

  it("come first, and stay when everything else is compressed", () => {
    const instructions = [{ path: "AGENTS.md", text: "Use tabs. Never edit generated files." }];
    const { body, record } = buildContext({ ...base, attempts, finishedSubtrees, instructions });
    expect(body.startsWith("## Project instructions (AGENTS.md / CLAUDE.md)\n\n### AGENTS.md")).toBe(true);
    expect(body).toContain("Use tabs. Never edit generated files.");
    expect(record.triggers).toContain("history_cap");
    expect(record.dropped.some((item) => item.item === "instructions")).toBe(false);
  });

  it("are shortened to their budget, recorded, never removed", () => {
    const instructions = [{ path: "AGENTS.md", text: `FIRST RULE. ${"more. ".repeat(2_000)}` }];
    const { body, record } = buildContext({ ...base, attempts, instructions });
    expect(body).toContain("FIRST RULE.");
    expect(body).not.toContain("more. ".repeat(1_000));
    expect(record.dropped).toContainEqual(
      expect.objectContaining({ item: "instructions", how: "shortened", id: "instructions" }),
    );
  });

  it("leave no section when the project has none", () => {
    expect(buildContext(base).body).not.toContain("Project instructions");
  });
});
