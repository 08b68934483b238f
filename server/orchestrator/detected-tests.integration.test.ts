import { describe, expect, it } from "vitest";
import { askEveryCommandProject, payloadOf } from "@/testing/harness/ask-every-command-project";

/**
 * Issue #15 items 2, 3 and 5 with every real part (SQLite, Docker, the AI SDK over HTTP to the fake
 * model server), under "ask before every command": a node:test project whose `sum.js` subtracts. The
 * model's contract ("sum.js contains `a + b`") is already green before any work (a comment says it),
 * so the project's detected tests, scoped to the target (`node --test --test-reporter=tap test/sum.test.js`), are added
 * as a fallback; every check asks at the baseline with a command card and runs only once approved;
 * the detected tests are red before the edit and green after it: red → green.
 */
const SUM = "// sum returns a + b\nexports.sum = (a, b) => a - b;\n";
const TEST = `const test = require("node:test");
const assert = require("node:assert");
const { sum } = require("../sum");
test("adds two numbers", () => assert.strictEqual(sum(1, 2), 3));
`;

const { world, answerUntilEnded, start } = askEveryCommandProject({
  repoName: "Detected",
  files: {
    "package.json": JSON.stringify({ name: "p", scripts: { test: "node --test" } }),
    "sum.js": SUM,
    "test/sum.test.js": TEST,
  },
  task: "replace `a - b` with `a + b` in `sum.js`",
});

const DETECTED = "node --test --test-reporter=tap test/sum.test.js";

describe("the project's detected tests as a fallback check", () => {
  it("green named check, detected tests red before and green after, every check asked first: red → green", async () => {
    const { store, orch, runId } = await start();
    const seen = await answerUntilEnded(orch, runId, () => true);

    const view = await world.view();
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(root?.contract).toEqual([
      { kind: "FILE_CONTAINS", path: "sum.js", text: "a + b" },
      { kind: "TESTS_PASS", command: DETECTED },
    ]);
    expect(root?.contractBy?.detectedTests).toEqual([1]);
    // Before any work: the named check green, the detected tests red with the failing test's name.
    expect(root?.baseline?.results).toMatchObject([
      { index: 0, result: { passed: true } },
      { index: 1, result: { passed: false, tests: { failed: 1, failingTests: ["adds two numbers"] } } },
    ]);
    expect(root?.baseline?.results[1]?.result.couldNotRun).toBeUndefined();
    // Each baseline check asked with a card of its own (this project asks before every command).
    const baselineCards = seen.filter((card) => payloadOf(card).thought?.startsWith("Check before any work"));
    expect(baselineCards.map((card) => payloadOf(card).command)).toEqual([
      "grep -n -F -m 3 -- 'a + b' sum.js",
      DETECTED,
    ]);
    expect(root?.status).toBe("VERIFIED");
    expect(root?.evidence).toBe("red-to-green");
    expect(root?.reason).toContain(DETECTED);
    // The regression guard (the project's whole `npm test`) was red before and green after: it held.
    expect(root?.reason).toContain("the project's tests (`npm test`) pass after the work");
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    // The checks ran through the door: asked first, then run with the person's bound approval.
    const ran = (await store.read(world.sessionId)).flatMap((event) =>
      event.body.type === "check-ran" && event.body.command === DETECTED ? [event.body] : [],
    );
    expect(ran.map((check) => [check.phase, check.status])).toEqual([
      ["baseline", "ask"],
      ["baseline", "failed"],
      ["after-action", "ok"],
    ]);
  }, 180_000);

  it("a person who declines the detected tests before the work: they cannot show red → green, not verified", async () => {
    const { orch, runId } = await start();
    await answerUntilEnded(orch, runId, (pending) => payloadOf(pending).command !== DETECTED);

    const view = await world.view();
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(root?.contractBy?.detectedTests).toEqual([1]);
    expect(root?.baseline?.results[1]?.result.couldNotRun).toContain("needs a person's approval");
    expect(root?.status).not.toBe("VERIFIED");
    expect(view.runs[runId]?.status).not.toBe("VERIFIED");
  }, 180_000);
});
