import { describe, expect, it } from "vitest";
import { FakeSandboxProvider, scriptedModel } from "@/testing/harness/fakes";
import { runTask } from "@/testing/harness/riva-harness";

/**
 * The regression guard's repair cycle through the real engine over an in-memory log: a project with a
 * test script (discovery detects `npm test`) and a root whose own check is a file check, in a sandbox
 * that keeps the workspace's state: `break-it` makes the file check pass and the project's test fail,
 * `fix-it` makes the test pass again. The model breaks it, and in the repair cycle (told by the guard)
 * fixes it — or not. A server killed at any point resumes to the same outcome.
 */
const tap = (passed: boolean) =>
  [
    "TAP version 13",
    `${passed ? "ok" : "not ok"} 1 - adds two numbers`,
    "1..1",
    "# tests 1",
    `# pass ${passed ? 1 : 0}`,
    `# fail ${passed ? 0 : 1}`,
    "",
  ].join("\n");

function project() {
  const workspace = { edited: false, broken: false };
  return new FakeSandboxProvider((command) => {
    if (command.startsWith("if [ ! -e /workspace ]"))
      return { exitCode: 0, stdout: "f package.json\nf sum.js\nf test/sum.test.js\n" };
    if (command.startsWith("realpath -m -- /workspace/package.json"))
      return { exitCode: 0, stdout: "/workspace/package.json\n" };
    if (command.startsWith("if [ -d /workspace/package.json ]"))
      return { exitCode: 0, stdout: '{"scripts":{"test":"node --test"}}\n' };
    if (command === "break-it") Object.assign(workspace, { edited: true, broken: true });
    if (command === "fix-it") workspace.broken = false;
    if (command.startsWith("npm test"))
      return { exitCode: workspace.broken ? 1 : 0, stdout: tap(!workspace.broken) };
    // The root's own check (`sum.js` contains `a - b`): red until the edit, green after it.
    if (command.startsWith("grep")) return { exitCode: workspace.edited ? 0 : 1, stdout: "" };
    return { exitCode: 0, stdout: "ok" };
  });
}

/** Breaks the tests; told by the guard (the repair cycle's last attempt line), fixes them when `fixes`. */
const model = (fixes: boolean) =>
  scriptedModel({
    plan: () => ({ kind: "direct", thought: "one step" }),
    nextAction: (input) => {
      const told = input.previousAttempts.some((line) => line.includes("adds two numbers"));
      return { thought: "edit it", command: told && fixes ? "fix-it" : "break-it" };
    },
  });
const task = "replace `a + b` with `a - b` in `sum.js`";

describe("the regression guard's repair cycle in the engine", () => {
  it("green → red → repair cycle → green: VERIFIED on the repair cycle's own check, both runs recorded", async () => {
    const { view, runId } = await runTask({ task, model: model(true), sandboxes: project() });
    const run = view.runs[runId];
    const root = view.intentions[run?.rootId ?? ""];
    expect(run?.guard?.afters.map((after) => after.passed)).toEqual([false, true]);
    expect(run?.guard?.repairs).toHaveLength(1);
    expect(root?.cycles.map((cycle) => cycle.judgment)).toEqual(["SUCCESS", "SUCCESS"]);
    // The repair cycle's check ran again on the new workspace: each cycle has its own passing check.
    expect(root?.cycles.every((cycle) => cycle.checks?.some((check) => check.passed))).toBe(true);
    expect(root?.decisions.at(-1)?.reason).toContain("attempt 2: repair cycle: regression guard:");
    expect(run?.status).toBe("VERIFIED");
    expect(root?.evidence).toBe("red-to-green");
  });

  it("green → red → repair cycle → red: FAILED naming both runs", async () => {
    const { view, runId } = await runTask({ task, model: model(false), sandboxes: project() });
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(view.runs[runId]?.status).toBe("FAILED");
    expect(root?.reason).toContain("after 1 repair cycle (run 1 after the work:");
    expect(root?.cycles).toHaveLength(2);
  });

  it("a server killed after any append resumes to the same outcome, with one repair cycle only", async () => {
    // Every point of the run, the repair's own append included, is a crash point, until one past its end.
    let crash = 1;
    for (; crash < 60; crash++) {
      const { view, runId, restarts } = await runTask({
        task,
        model: model(true),
        sandboxes: project(),
        crashAfterAppends: [crash],
      });
      const run = view.runs[runId];
      const at = `killed after ${crash} appends`;
      if (restarts === 0) break;
      expect(run?.status, at).toBe("VERIFIED");
      expect(run?.guard?.repairs, at).toHaveLength(1);
      expect(
        run?.guard?.afters.map((after) => after.passed),
        at,
      ).toEqual([false, true]);
    }
  });
});
