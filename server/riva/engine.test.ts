import { describe, expect, it } from "vitest";
import { ModelUnavailableError } from "@/server/model/errors";
import { backticked, intentions, ok, splitOnAnd, splitPlan } from "@/testing/harness/engine-scripts";
import { FakeSandboxProvider, scriptedModel } from "@/testing/harness/fakes";
import { runTask } from "@/testing/harness/riva-harness";

/** The RIVA engine driven through the orchestrator over an in-memory log, with scripted model and sandbox. */

describe("RivaEngine", () => {
  it("verifies a single explicit command directly, without asking for a decomposition", async () => {
    const sandboxes = ok();
    const { view, runId } = await runTask({ task: "run `make`", model: splitOnAnd, sandboxes });
    expect(view.runs[runId]).toMatchObject({ status: "VERIFIED" });
    expect(Object.keys(view.approvals)).toHaveLength(0);
    expect(sandboxes.actions).toEqual(["make"]);
    expect(intentions(view)[0]?.decisions[0]).toMatchObject({
      decision: "verify-directly",
      reason: expect.stringContaining("can verify directly"),
    });
  });

  it("decomposes a compound task, works children depth first and integrates at the parent", async () => {
    const sandboxes = ok();
    const { view, runId } = await runTask({ task: "run `a` and then run `b`", model: splitOnAnd, sandboxes });
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    expect(sandboxes.actions).toEqual(["a", "b"]);
    const [root] = intentions(view);
    expect(root?.reason).toBe("integration check passed: all 2 children verified");
  });

  it("recursively decomposes a child that fails twice, then verifies the grandchildren", async () => {
    // `big` holds once its parts `x` and `y` have run (the parent's own check, at integration).
    const ran: string[] = [];
    const sandboxes = new FakeSandboxProvider((command) => {
      ran.push(command);
      if (command === "big")
        return ran.includes("x") && ran.includes("y")
          ? { stdout: "fine" }
          : { exitCode: 1, stderr: "too much at once" };
      return { stdout: "fine" };
    });
    const model = scriptedModel({
      plan: (input) => {
        if (input.task === "run `big`" && input.mustDecompose) {
          return {
            kind: "decompose",
            thought: "smaller",
            children: [
              { what: "run `x`", acceptance: "exits 0" },
              { what: "run `y`", acceptance: "exits 0" },
            ],
          };
        }
        return splitPlan(input);
      },
      nextAction: (input) => backticked(input.what),
    });
    const { view, runId } = await runTask({ task: "run `a` and run `big`", model, sandboxes });
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    // Issue #15: "run `big`" is checked by `big` itself: the integration check runs it after x and y.
    expect(sandboxes.actions).toEqual(["a", "big", "big", "x", "y", "big"]);
    const big = intentions(view).find((intention) => intention.what === "run `big`");
    expect(big?.decisions.map((entry) => entry.decision)).toEqual(["verify-directly", "retry", "decompose"]);
    expect(big?.decisions[2]?.reason).toContain("2 failed cycles");
    expect(big?.childIds).toHaveLength(2);
    expect(Math.max(...intentions(view).map((intention) => intention.depth))).toBe(2);
  });

  it("fails the branch and the run when a failing step cannot be split", async () => {
    const { view, runId } = await runTask({
      task: "run `fail now` and run `b`",
      model: splitOnAnd,
      sandboxes: ok(),
    });
    expect(view.runs[runId]?.status).toBe("FAILED");
    expect(view.runs[runId]?.reason).toMatch(
      /^child 1 "run `fail now`" failed: 2 failed cycles .*cannot be decomposed further: one step$/,
    );
    expect(intentions(view).find((intention) => intention.what === "run `b`")?.status).toBe("PENDING");
  });

  it("applies a person's edited children instead of the proposal", async () => {
    const sandboxes = ok();
    const { view } = await runTask({
      task: "run `a` and run `b`",
      model: splitOnAnd,
      sandboxes,
      answer: () => ({ decision: "approved", children: [{ what: "run `edited`", acceptance: "exits 0" }] }),
    });
    expect(sandboxes.actions).toEqual(["edited"]);
    expect(intentions(view).map((intention) => intention.what)).toEqual([
      "run `a` and run `b`",
      "run `edited`",
    ]);
  });

  it("records a model failure as the intention's reason and ends the run", async () => {
    const model = scriptedModel({
      plan: () => new Error("Model server at http://x is not reachable"),
      nextAction: () => ({ thought: "", command: "true" }),
    });
    const { view, runId } = await runTask({ task: "run `a` and run `b`", model, sandboxes: ok() });
    expect(view.runs[runId]?.reason).toBe(
      "the model could not plan: Model server at http://x is not reachable",
    );
  });

  it("records a sandbox that cannot start as the cycle's error, judged FAILURE", async () => {
    const sandboxes = new FakeSandboxProvider(() => ({}), new Error("Docker engine is not reachable"));
    const { view } = await runTask({ task: "run `a`", model: splitOnAnd, sandboxes });
    const cycle = intentions(view)[0]?.cycles[0];
    expect(cycle).toMatchObject({ error: "Docker engine is not reachable", judgment: "FAILURE" });
  });

  it("stops at the max iterations and names the limit", async () => {
    const model = scriptedModel({
      plan: () => ({ kind: "direct", thought: "" }),
      nextAction: (_, count) => ({ thought: "", command: `try ${count}` }),
    });
    const never = new FakeSandboxProvider((command) => ({ exitCode: 1, stdout: command }));
    const { view, runId } = await runTask({
      task: "run `x`",
      model,
      sandboxes: never,
      limits: { maxIterations: 1 },
    });
    expect(view.runs[runId]?.reason).toBe("limit reached: max iterations (1 action cycles)");
    expect(never.actions).toEqual(["try 0"]);
  });
});

describe("RivaEngine model retries", () => {
  it("retries a timed-out model call with the seed's backoff and records each failed attempt", async () => {
    const model = scriptedModel({
      plan: () => ({ kind: "direct", thought: "" }),
      nextAction: (_, count) =>
        count < 2
          ? new ModelUnavailableError("Model server at http://m timed out", "timeout")
          : { thought: "", command: "true" },
    });
    const { view, runId, events } = await runTask({ task: "run `true`", model, sandboxes: ok() });
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const failures = events.flatMap((event) =>
      event.body.type === "llm-called" && event.body.error ? [event.body.error] : [],
    );
    expect(failures).toEqual([
      "timeout (attempt 1): Model server at http://m timed out; retrying in 1 s",
      "timeout (attempt 2): Model server at http://m timed out; retrying in 2 s",
    ]);
  });

  it("does not retry a permanent error", async () => {
    const model = scriptedModel({
      plan: () => ({ kind: "direct", thought: "" }),
      nextAction: () => new Error("bad request"),
    });
    const { view, runId } = await runTask({ task: "run `true`", model, sandboxes: ok() });
    expect(model.calls.act).toBe(1);
    expect(view.runs[runId]?.reason).toBe("the model could not choose an action: bad request");
  });
});

describe("RivaEngine with contracts", () => {
  const twoSteps = () =>
    scriptedModel({
      plan: (input) =>
        input.task.includes(" and ")
          ? {
              kind: "decompose",
              thought: "two",
              children: [
                { what: "run `make-file`", acceptance: "the file `out.txt` exists" },
                { what: "run `b`", acceptance: "the command `b` exits 0" },
              ],
            }
          : { kind: "direct", thought: "" },
      nextAction: (input) => backticked(input.what),
    });

  it("judges exit 0 PARTIAL while a criterion fails, records the gap, and verifies once it holds", async () => {
    let made = 0;
    const sandboxes = new FakeSandboxProvider((command) => {
      if (command === "make-file") made += 1;
      if (command === "test -e out.txt") return { exitCode: made >= 2 ? 0 : 1 };
      return {};
    });
    const { view, runId } = await runTask({
      task: "run `make-file` and run `b`",
      model: twoSteps(),
      sandboxes,
    });
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const child = intentions(view).find((intention) => intention.what === "run `make-file`");
    expect(child?.contract).toEqual([{ kind: "FILE_EXISTS", path: "out.txt" }]);
    expect(child?.cycles.map((cycle) => cycle.judgment)).toEqual(["PARTIAL", "SUCCESS"]);
    expect(child?.cycles[0]?.judgmentReason).toBe(
      "exit code 0, but the contract has a gap: file out.txt exists",
    );
    expect(child?.cycles[0]?.reflection).toContain(
      "Gap contract (what remains):\n- file out.txt exists: out.txt does not exist",
    );
    expect(child?.cycles[1]?.checks).toEqual([
      { criterion: { kind: "FILE_EXISTS", path: "out.txt" }, passed: true, evidence: "out.txt exists" },
    ]);
    // `b` is the TESTS_PASS criterion of its own child: the action is its evidence, it is not run twice.
    expect(sandboxes.actions.filter((command) => command === "b")).toHaveLength(1);
  });

  it("checks a parent's own contract at integration and fails it when it does not hold", async () => {
    const sandboxes = new FakeSandboxProvider((command) => {
      if (command === "big") return { exitCode: 1, stderr: "too big" };
      if (command === "check-all") return { exitCode: 1, stderr: "integration broken" };
      return {};
    });
    const model = scriptedModel({
      plan: (input) => {
        if (input.task === "run `big`") {
          return {
            kind: "decompose",
            thought: "",
            children: [
              { what: "run `x`", acceptance: "" },
              { what: "run `y`", acceptance: "" },
            ],
          };
        }
        if (input.task.includes(" and ")) {
          return {
            kind: "decompose",
            thought: "",
            children: [
              { what: "run `big`", acceptance: "the command `check-all` exits 0" },
              { what: "run `z`", acceptance: "" },
            ],
          };
        }
        return { kind: "direct", thought: "" };
      },
      nextAction: (input) => backticked(input.what),
    });
    const { view, runId } = await runTask({ task: "run `big` and run `z`", model, sandboxes });
    const big = intentions(view).find((intention) => intention.what === "run `big`");
    expect(big?.childIds.map((id) => view.intentions[id]?.status)).toEqual(["VERIFIED", "VERIFIED"]);
    expect(big?.integrationChecks).toEqual([
      {
        criterion: { kind: "TESTS_PASS", command: "check-all" },
        passed: false,
        evidence: "`check-all` failed\nintegration broken",
      },
    ]);
    expect(big?.status).toBe("FAILED");
    expect(big?.reason).toBe(
      "integration check failed: all 2 children verified, but `check-all` exits 0 does not hold",
    );
    expect(view.runs[runId]?.status).toBe("FAILED");
  });
});
