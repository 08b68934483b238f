import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { type emptySessionView, foldEvents } from "@/server/domain/session/fold";
import { MemoryEventLog } from "@/server/events/log";
import { Orchestrator } from "@/server/orchestrator/orchestrator";
import { intentions, ok, splitOnAnd } from "@/testing/harness/engine-scripts";
import { scriptedModel } from "@/testing/harness/fakes";
import { testOrchestratorDeps } from "@/testing/harness/orchestrator-deps";
import { runTask } from "@/testing/harness/riva-harness";

/** The judgment questions end to end through the orchestrator and engine, answered like a person would. */

const QUIET = { commands: "never-ask", decompositions: "auto" } as const;
const oneCommand = () =>
  scriptedModel({
    plan: () => ({ kind: "direct", thought: "" }),
    nextAction: (_, count) => ({ thought: "build", command: `make build-${count}` }),
  });

describe("judge_action asked of a person", () => {
  it("an override of SUCCESS to FAILURE makes the engine retry; the confirmation verifies", async () => {
    const sandboxes = ok();
    const asked: string[] = [];
    const { view, runId, events } = await runTask({
      task: "run `make build`",
      model: oneCommand(),
      sandboxes,
      checkpoints: { ...QUIET, judgeAction: "ask" },
      answer: (approval) => {
        asked.push(
          `${approval.kind}:${approval.proposal?.question === "judge_action" && approval.proposal.judgment}`,
        );
        return asked.length === 1
          ? {
              decision: "rejected",
              reason: "the build is empty",
              answer: { question: "judge_action", judgment: "FAILURE" },
            }
          : { decision: "approved" };
      },
    });
    expect(asked).toEqual(["judgment:SUCCESS", "judgment:SUCCESS"]);
    // Issue #15: the model ran `make build-N`, not the requested `make build`: the check runs itself.
    expect(sandboxes.actions).toEqual(["make build-0", "make build", "make build-1", "make build"]);
    const [first, second] = intentions(view)[0]?.cycles ?? [];
    expect(first).toMatchObject({
      judgment: "FAILURE",
      judgedBy: "Ada",
      // The auto proposal now includes the contract's check (`make build`, run on its own).
      judgmentReason: expect.stringMatching(
        /^Ada overrode SUCCESS with FAILURE: the build is empty \(auto: exit code 0 and all 1 contract criteria hold\)/,
      ),
      reflection: expect.stringContaining("Judged FAILURE by Ada"),
    });
    expect(second).toMatchObject({ judgment: "SUCCESS", judgedBy: "Ada" });
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const decided = events.map((event) => event.body).filter((body) => body.type === "approval-decided");
    expect(decided.map((body) => body.decision)).toEqual(["rejected", "approved"]);
  });

  it("with the default policy nobody is asked and the auto checkpoint judges", async () => {
    const { view } = await runTask({
      task: "run `make build`",
      model: oneCommand(),
      sandboxes: ok(),
      answer: () => {
        throw new Error("no person should be asked");
      },
    });
    expect(intentions(view)[0]?.cycles[0]).toMatchObject({ judgment: "SUCCESS", judgedBy: "auto" });
  });

  it("a pending judgment survives a restart: the action is not run again and the answer still counts", async () => {
    const log = new MemoryEventLog(Date.now);
    const sandboxes = ok();
    const deps = testOrchestratorDeps({
      log,
      model: oneCommand(),
      sandboxes,
      commandTimeoutMs: 1_000,
      sandboxImage: "fake",
      runningRuns: async () => [{ runId, sessionId: "s" }],
      checkpointsOf: async () => CheckpointPolicy.parse({ ...QUIET, judgeAction: "ask" }),
      sleep: async () => undefined,
    });
    let runId = "";
    const before = new Orchestrator(deps);
    ({ runId } = await before.startRun({ sessionId: "s", task: "run `make`", mode: "agent", actor: ADA }));
    const pending = await waitFor(log, (view) =>
      Object.values(view.approvals).find((approval) => approval.status === "PENDING"),
    );
    expect(pending.kind).toBe("judgment");
    // A second orchestrator over the same log is what a restart leaves (the first one's engine waits on).
    const after = new Orchestrator(deps);
    expect(await after.resumeInterrupted()).toBe(1);
    const view = await waitFor(log, (folded) => folded);
    expect(view.approvals[pending.id]?.status).toBe("PENDING");
    expect(intentions(view)[0]?.cycles[0]?.judgment).toBeNull();
    await after.decide({
      sessionId: "s",
      approvalId: pending.id,
      decision: "approved",
      reason: null,
      actor: ADA,
    });
    const ended = await waitFor(log, (folded) => (folded.runs[runId]?.status === "VERIFIED" ? folded : null));
    // The action is not run again; the check (`make` itself, not what the model ran) runs once.
    expect(sandboxes.actions).toEqual(["make build-0", "make"]);
    expect(intentions(ended)[0]?.cycles[0]).toMatchObject({ judgment: "SUCCESS", judgedBy: "Ada" });
  });
});

describe("verify_integration asked of a person", () => {
  it("a confirmation verifies the parent; an override fails it and the run with the person's reason", async () => {
    const confirmed = await runTask({
      task: "run `a` and run `b`",
      model: splitOnAnd,
      sandboxes: ok(),
      checkpoints: { ...QUIET, verifyIntegration: "ask" },
    });
    const root = intentions(confirmed.view)[0];
    expect(root).toMatchObject({
      status: "VERIFIED",
      reason: expect.stringMatching(/^integration: Ada confirmed VERIFIED/),
    });

    const overridden = await runTask({
      task: "run `a` and run `b`",
      model: splitOnAnd,
      sandboxes: ok(),
      checkpoints: { ...QUIET, verifyIntegration: "ask" },
      answer: (approval) => {
        expect(approval.proposal).toMatchObject({ question: "verify_integration", status: "VERIFIED" });
        return { decision: "rejected", reason: "b undoes a" };
      },
    });
    expect(overridden.view.runs[overridden.runId]).toMatchObject({
      status: "FAILED",
      reason: expect.stringContaining("integration: Ada overrode VERIFIED with FAILED: b undoes a"),
    });
  });
});

describe("review_reflection asked of a person", () => {
  const failingThenFixed = () =>
    scriptedModel({
      plan: (input) =>
        input.mustDecompose
          ? {
              kind: "decompose",
              thought: "split",
              children: [
                { what: "run `x`", acceptance: "" },
                { what: "run `y`", acceptance: "" },
              ],
            }
          : { kind: "direct", thought: "" },
      nextAction: (input, count) => ({
        thought: input.previousAttempts.join(" | "),
        command: count === 0 ? "fail first" : (/`([^`]+)`/.exec(input.what)?.[1] ?? "true"),
      }),
    });

  it("the person's edited reflection is what the next attempt reads", async () => {
    const model = failingThenFixed();
    const { view, runId } = await runTask({
      task: "run `make`",
      model,
      sandboxes: ok(),
      checkpoints: { ...QUIET, reviewReflection: "ask" },
      answer: (approval) => {
        expect(approval.proposal).toMatchObject({ question: "review_reflection", judgment: "FAILURE" });
        return {
          decision: "approved",
          answer: { question: "review_reflection", reflection: "try plain make" },
        };
      },
    });
    const [missed, retried] = intentions(view)[0]?.cycles ?? [];
    expect(missed?.reflection).toBe("try plain make");
    expect(retried?.thought).toBe("fail first → FAILURE: try plain make");
    expect(view.runs[runId]?.status).toBe("VERIFIED");
  });

  it("a request to decompose splits the intention instead of retrying it", async () => {
    const { view, runId } = await runTask({
      task: "run `make`",
      model: failingThenFixed(),
      sandboxes: ok(),
      checkpoints: { ...QUIET, reviewReflection: "ask" },
      answer: (approval) => ({
        decision: "rejected",
        reason: "too big",
        answer: {
          question: "review_reflection",
          reflection: approval.proposal?.question === "review_reflection" ? approval.proposal.reflection : "",
          decompose: true,
        },
      }),
    });
    const root = intentions(view)[0];
    expect(root?.decisions.at(-1)).toEqual({
      decision: "decompose",
      reason: "should decompose: Ada asked to decompose after reviewing the reflection",
    });
    expect(root?.childIds).toHaveLength(2);
    expect(view.runs[runId]?.status).toBe("VERIFIED");
  });
});

const ADA = { userId: "u-ada", name: "Ada" };

async function waitFor<T>(
  log: MemoryEventLog,
  pick: (view: ReturnType<typeof emptySessionView>) => T | null | undefined,
): Promise<T> {
  for (let tick = 0; tick < 20_000; tick++) {
    await new Promise((resolve) => setImmediate(resolve));
    const found = pick(foldEvents(await log.read("s")));
    if (found) return found;
  }
  throw new Error("condition not reached");
}
