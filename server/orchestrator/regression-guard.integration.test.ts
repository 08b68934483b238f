import { describe, expect, it } from "vitest";
import { acceptRefusal } from "@/server/orchestrator/accept-intention";
import { askEveryCommandProject, payloadOf } from "@/testing/harness/ask-every-command-project";

/**
 * The regression guard with every real part (SQLite, Docker, the AI SDK over HTTP to the fake model
 * server): a node:test project whose tests pass, and a task that breaks them. The root's own check
 * (`sum.js` contains `a - b`) goes red → green, so without the guard the run would end VERIFIED; the
 * project's tests ran green before any work and red after it, so it ends FAILED and says why.
 */
const { world, answerUntilEnded, start } = askEveryCommandProject({
  repoName: "Guard",
  files: {
    "package.json": JSON.stringify({ name: "p", scripts: { test: "node --test" } }),
    "sum.js": "exports.sum = (a, b) => a + b;\n",
    "test/sum.test.js": `const test = require("node:test");
const assert = require("node:assert");
const { sum } = require("../sum");
test("adds two numbers", () => assert.strictEqual(sum(1, 2), 3));
`,
  },
  task: "replace `a + b` with `a - b` in `sum.js`",
});

describe("the regression guard", () => {
  it("own check red → green, the project's tests green → red: FAILED with the failing test named", async () => {
    const { store, orch, runId } = await start();
    const seen = await answerUntilEnded(orch, runId, () => true);

    const view = await world.view();
    const run = view.runs[runId];
    const root = view.intentions[run?.rootId ?? ""];
    // The guard asked once (this project asks before every command); the approval covered both runs.
    const guardCards = seen.filter((card) => payloadOf(card).thought?.startsWith("Regression guard"));
    expect(guardCards.map((card) => payloadOf(card).thought)).toEqual([
      expect.stringContaining("Regression guard before any work: run `npm test -- --test-reporter=tap`"),
    ]);
    expect(run?.guard?.before).toMatchObject({ passed: true });
    expect(run?.guard?.after).toMatchObject({ passed: false, tests: { failingTests: ["adds two numbers"] } });
    // The root's own check did go red → green: only the guard stopped it.
    expect(root?.baseline?.results[0]?.result.passed).toBe(false);
    expect(root?.cycles.at(-1)?.judgment).toBe("SUCCESS");
    expect(root?.status).toBe("FAILED");
    expect(root?.evidence ?? null).toBeNull();
    expect(root?.reason).toContain(
      "regression guard: the project's tests (`npm test`) passed before the work and fail after it (1 failed: adds two numbers)",
    );
    expect(run?.status).toBe("FAILED");
    // It had evidence, so it did not fail "for want of evidence": a person cannot accept it over the guard.
    expect(acceptRefusal(view, root)).toContain("Only a node that failed for want of evidence");
    // Both runs went through the door as checks of the guard, the first only after the click.
    const ran = (await store.read(world.sessionId)).flatMap((event) =>
      event.body.type === "check-ran" && event.body.phase === "guard" ? [event.body.status] : [],
    );
    expect(ran).toEqual(["ask", "ok", "failed"]);
  }, 180_000);
});
