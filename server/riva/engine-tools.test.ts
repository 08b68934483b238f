import { describe, expect, it } from "vitest";
import { intentions, ok, splitPlan } from "@/testing/harness/engine-scripts";
import { scriptedModel } from "@/testing/harness/fakes";
import { runTask } from "@/testing/harness/riva-harness";

/** The act step's tool calls through the engine, without Docker: a scripted model and sandbox. */

describe("RivaEngine with tool calls", () => {
  it("records an invalid tool call as a FAILURE whose reason the next attempt reads, and runs nothing", async () => {
    const seen: string[][] = [];
    const sandboxes = ok();
    const model = scriptedModel({
      plan: splitPlan,
      nextAction: (input, count) => {
        seen.push(input.previousAttempts);
        return count === 0
          ? { thought: "edit it", tool: "fs.edit", input: { path: "a.js", search: "" } }
          : { thought: "run it", command: "true" };
      },
    });
    const { view, runId } = await runTask({ task: "fix `a.js`", model, sandboxes });
    // Issue #15: `true` exiting 0 checks nothing of "fix `a.js`": no check — not verified.
    expect(view.runs[runId]?.status).toBe("FAILED");
    const [root] = intentions(view);
    expect(root?.reason).toContain("no check — not verified");
    expect(root?.cycles[0]).toMatchObject({
      action: { type: "EDIT", tool: "fs.edit", target: "a.js" },
      judgment: "FAILURE",
      judgedBy: "policy",
      judgmentReason: expect.stringContaining("The input of fs.edit does not match its schema"),
    });
    expect(seen[1]?.[0]).toMatch(/^fs\.edit a\.js .*→ FAILURE: Not run \(The input of fs\.edit/);
    expect(sandboxes.actions).toEqual(["true"]);
  });

  it("a tool the registry does not have is refused the same way", async () => {
    const model = scriptedModel({
      plan: splitPlan,
      nextAction: (_, count) =>
        count === 0
          ? { thought: "?", tool: "fs.chmod", input: { path: "a" } }
          : { thought: "ok", command: "true" },
    });
    const { view } = await runTask({ task: "do it", model, sandboxes: ok() });
    expect(intentions(view)[0]?.cycles[0]).toMatchObject({
      action: { type: "COMMAND", tool: "fs.chmod" },
      judgment: "FAILURE",
      judgmentReason: 'There is no tool "fs.chmod".',
    });
  });
});
