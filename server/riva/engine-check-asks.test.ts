import { describe, expect, it } from "vitest";
import { backticked, splitPlan } from "@/testing/harness/engine-scripts";
import { FakeSandboxProvider, scriptedModel } from "@/testing/harness/fakes";
import { runTask } from "@/testing/harness/riva-harness";

/**
 * Issue #15.5: under auto-approved decompositions a check the command policy would not run unasked
 * asks at a parent's integration too (not only after an action), and runs only once approved; a
 * person who declines leaves it "could not run", and the parent is not verified.
 */
const model = scriptedModel({
  plan: (input) => {
    if (input.task === "run `fail-big`" && input.mustDecompose)
      return {
        kind: "decompose",
        thought: "smaller",
        children: [
          { what: "run `x`", acceptance: "exits 0" },
          { what: "run `y`", acceptance: "exits 0" },
        ],
      };
    if (input.task.startsWith("run `a`"))
      return {
        kind: "decompose",
        thought: "two",
        children: [
          { what: "run `a`", acceptance: "the command `a` exits 0" },
          { what: "run `fail-big`", acceptance: "the command `check-big` exits 0" },
        ],
      };
    return splitPlan(input);
  },
  nextAction: (input) => backticked(input.what),
});

const checkpoints = {
  decompositions: "auto" as const,
  commands: "ask-unlisted" as const,
  allowCommands: ["a", "fail-big", "x", "y"].map((program) => ({ program, args: [] })),
};

async function run(approve: boolean) {
  const ran: string[] = [];
  const sandboxes = new FakeSandboxProvider((command) => {
    ran.push(command);
    return command.startsWith("fail") ? { exitCode: 1, stderr: "too big" } : { stdout: "fine" };
  });
  const asked: string[] = [];
  const result = await runTask({
    task: "run `a` and then run `fail-big`",
    model,
    sandboxes,
    checkpoints,
    answer: (approval) => {
      asked.push(`${approval.checkPhase ?? "-"}:${approval.command ?? approval.kind}`);
      return approve || approval.command !== "check-big"
        ? { decision: "approved" }
        : { decision: "rejected", reason: "not now" };
    },
  });
  return { ...result, ran, asked };
}

describe("a check that would ask, at integration", () => {
  it("asks with a command card, runs once approved, and verifies the parent", async () => {
    const { view, runId, ran, asked } = await run(true);
    expect(asked).toEqual(["integration:check-big"]);
    expect(ran).toContain("check-big");
    const big = Object.values(view.intentions).find((intention) => intention.what === "run `fail-big`");
    expect(big?.integrationChecks).toMatchObject([{ passed: true }]);
    expect(big?.status).toBe("VERIFIED");
    expect(view.runs[runId]?.status).toBe("VERIFIED");
  });

  it("declined: asked once, never run, the parent is not verified", async () => {
    const { view, runId, ran, asked } = await run(false);
    expect(asked).toEqual(["integration:check-big"]);
    expect(ran).not.toContain("check-big");
    const big = Object.values(view.intentions).find((intention) => intention.what === "run `fail-big`");
    expect(big?.integrationChecks?.[0]?.couldNotRun).toContain("needs a person's approval");
    expect(big?.status).not.toBe("VERIFIED");
    expect(view.runs[runId]?.status).not.toBe("VERIFIED");
  });
});
