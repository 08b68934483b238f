import { describe, expect, it } from "vitest";
import { acceptRefusal } from "@/server/orchestrator/accept-intention";
import { askEveryCommandProject, payloadOf } from "@/testing/harness/ask-every-command-project";

/**
 * The regression guard with every real part (SQLite, Docker, the AI SDK over HTTP to the fake model
 * server): a node:test project whose tests pass, and a task that breaks them. The root's own check
 * (`sum.js` contains `a - b`) goes red → green, so without the guard the run would end VERIFIED; the
 * project's tests ran green before any work and red after it, so the root gets one repair cycle whose
 * request names the failing test. A model that fixes it ends VERIFIED (the guard's second run held);
 * one that does not ends FAILED after its repair cycle, saying why.
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
  it("own check red → green, the project's tests green → red, not fixed in the repair cycle: FAILED", async () => {
    const { store, orch, runId } = await start();
    const seen = await answerUntilEnded(orch, runId, () => true);

    const view = await world.view();
    const run = view.runs[runId];
    const root = view.intentions[run?.rootId ?? ""];
    // The guard asked once (this project asks before every command); the approval covered every run.
    const guardCards = seen.filter((card) => payloadOf(card).thought?.startsWith("Regression guard"));
    expect(guardCards.map((card) => payloadOf(card).thought)).toEqual([
      expect.stringContaining("Regression guard before any work: run `npm test -- --test-reporter=tap`"),
    ]);
    expect(run?.guard?.before).toMatchObject({ passed: true });
    expect(run?.guard?.afters[0]).toMatchObject({
      passed: false,
      tests: { failingTests: ["adds two numbers"] },
    });
    // The regression gave the root one repair cycle (a second cycle), which did not fix the tests.
    expect(run?.guard?.repairsAllowed).toBe(1);
    expect(run?.guard?.repairs).toEqual([
      expect.objectContaining({
        cyclesBefore: 1,
        reason: expect.stringContaining("1 failed: adds two numbers"),
      }),
    ]);
    expect(root?.cycles.length).toBe(2);
    // The root's own check did go red → green: only the guard stopped it.
    expect(root?.baseline?.results[0]?.result.passed).toBe(false);
    expect(root?.cycles[0]?.judgment).toBe("SUCCESS");
    expect(root?.status).toBe("FAILED");
    expect(root?.evidence ?? null).toBeNull();
    expect(root?.reason).toContain(
      "regression guard: the project's tests (`npm test`) passed before the work and fail after it (1 failed: adds two numbers)",
    );
    expect(run?.status).toBe("FAILED");
    // The repair cycle had to pass the task's own check again (its edit found nothing to replace).
    expect(root?.cycles[1]?.judgment).toBe("FAILURE");
    expect(root?.reason).toContain("its repair cycle did not pass the task's own check: fs.edit failed");
    // It had evidence, so it did not fail "for want of evidence": a person cannot accept it over the guard.
    expect(acceptRefusal(view, root)).toContain("Only a node that failed for want of evidence");
    const ran = (await store.read(world.sessionId)).flatMap((event) =>
      event.body.type === "check-ran" && event.body.phase === "guard" ? [event.body.status] : [],
    );
    // No run after a repair cycle that failed its own check: the guard ran before and once after.
    expect(ran).toEqual(["ask", "ok", "failed"]);
  }, 180_000);

  it("a repair cycle that only looks: the guard's second run still regresses → FAILED naming both runs", async () => {
    const { orch, runId } = await start("guard-repair-sum-looks");
    await answerUntilEnded(orch, runId, () => true);

    const view = await world.view();
    const run = view.runs[runId];
    const root = view.intentions[run?.rootId ?? ""];
    expect(root?.cycles.map((cycle) => cycle.judgment)).toEqual(["SUCCESS", "SUCCESS"]);
    expect(run?.guard?.afters.map((after) => after.passed)).toEqual([false, false]);
    expect(root?.status).toBe("FAILED");
    expect(root?.reason).toContain("after 1 repair cycle (run 1 after the work:");
    expect(root?.reason?.match(/1 failed: adds two numbers/g)).toHaveLength(2);
    expect(run?.status).toBe("FAILED");
  }, 180_000);

  it("the repair cycle's request names the failing test; the model fixes it: VERIFIED, both guard runs recorded", async () => {
    const { store, orch, runId } = await start("guard-repair-sum");
    await answerUntilEnded(orch, runId, () => true);

    const view = await world.view();
    const run = view.runs[runId];
    const root = view.intentions[run?.rootId ?? ""];
    // What the guard saw reached the model as the reason for the repair cycle.
    const repairRequests = world.fakeModel.requests.filter(
      (request) =>
        request.headers["x-fake-scenario"] === "guard-repair-sum" &&
        JSON.stringify(request.body).includes("## Why this cycle"),
    );
    expect(repairRequests.length).toBeGreaterThan(0);
    expect(JSON.stringify(repairRequests[0]?.body)).toContain("1 failed: adds two numbers");
    // before → after (regression) → repair cycle → after (held); only the latest counts.
    expect(run?.guard?.before).toMatchObject({ passed: true });
    expect(run?.guard?.afters.map((after) => after.passed)).toEqual([false, true]);
    expect(run?.guard?.repairs).toHaveLength(1);
    expect(root?.cycles.map((cycle) => cycle.judgment)).toEqual(["SUCCESS", "SUCCESS"]);
    expect(root?.status).toBe("VERIFIED");
    expect(root?.evidence).toBe("red-to-green");
    expect(root?.reason).toContain("after 1 repair cycle");
    expect(run?.status).toBe("VERIFIED");
    // Three runs of the guard through the door: before (asked, then ran), after, after the repair.
    const ran = (await store.read(world.sessionId)).flatMap((event) =>
      event.body.type === "check-ran" && event.body.phase === "guard" ? [event.body.status] : [],
    );
    expect(ran).toEqual(["ask", "ok", "failed", "ok"]);
  }, 180_000);
});
