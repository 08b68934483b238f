import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { EventStore } from "@/server/events/store";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import type { Orchestrator } from "./orchestrator";

/**
 * Verification that never lies, with every real part: SQLite, Docker and the offline model. A
 * person's edit of the agent's command never inherits the check the command was for (the check runs
 * itself, through the tool dispatch), and a check the policy would ask about waits for a click.
 */
const world = orchestratorWorld({ repoName: "Verified" });
const { actor } = world;

type Pending = { id: string; kind: string; payload: string };
type Reply = { decision: "approved" | "rejected"; command?: string };

async function answerUntilEnded(orch: Orchestrator, runId: string, answer: (pending: Pending) => Reply) {
  for (let i = 0; i < 1_200; i++) {
    const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
    if (run.status !== "RUNNING") break;
    const pending = await world.db.approval.findFirst({
      where: { sessionId: world.sessionId, status: "PENDING" },
    });
    if (pending) {
      const reply = answer(pending);
      await orch.decide({
        sessionId: world.sessionId,
        approvalId: pending.id,
        decision: reply.decision,
        reason: reply.decision === "rejected" ? "no" : null,
        actor,
        ...(reply.command ? { command: reply.command } : {}),
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await orch.idle();
}

const commandOf = (pending: Pending) => (JSON.parse(pending.payload) as { command?: string }).command ?? "";

describe("evidence is what actually ran", () => {
  it("an edited command does not inherit the check: it runs itself, cannot run, and nothing is verified", async () => {
    const store = new EventStore(world.db);
    const orch = world.orchestrator({ log: store, runningRuns: async () => [] });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `cargo test`",
      mode: "agent",
      actor,
    });
    const edited = "ls -a && touch checked.txt";
    let edits = 0;
    let checkCards = 0;
    await answerUntilEnded(orch, runId, (pending) => {
      if (pending.kind === "command" && commandOf(pending) === "cargo test" && edits === 0) {
        edits++;
        return { decision: "approved", command: edited };
      }
      // The check's own card (the policy asks before `cargo test`): approved, so it really runs.
      if (pending.kind === "command" && commandOf(pending) === "cargo test") {
        checkCards++;
        return checkCards === 1 ? { decision: "approved" } : { decision: "rejected" };
      }
      return { decision: "rejected" };
    });

    const view = await world.view();
    console.log(
      JSON.stringify(
        Object.values(view.intentions).map((i) => ({
          what: i.what,
          acc: i.acceptance,
          contract: i.contract,
          status: i.status,
          reason: i.reason,
          cycles: i.cycles.map((c) => [c.action.content, c.exitCode, c.judgment, c.judgmentReason, c.checks]),
        })),
        null,
        1,
      ),
    );
    expect(view.runs[runId]?.status).toBe("FAILED");
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(root?.status).not.toBe("VERIFIED");
    expect(root?.contract).toEqual([{ kind: "TESTS_PASS", command: "cargo test" }]);
    const editedCycle = root?.cycles.find((cycle) => cycle.action.content === edited);
    expect(editedCycle).toMatchObject({ exitCode: 0, judgment: "UNCLEAR" });
    // The check that really ran: `cargo test` itself, approved by a click, and it could not run.
    const checkCycle = root?.cycles.find(
      (cycle) => cycle.action.content === "cargo test" && cycle.exitCode !== null,
    );
    expect(checkCycle?.judgment).toBe("FAILURE");
    expect(checkCycle?.judgmentReason).toContain("`cargo` is not installed in this sandbox");
    const events = await store.read(world.sessionId);
    const checks = events.flatMap((event) => (event.body.type === "check-ran" ? [event.body] : []));
    expect(checks.map((check) => check.command)).toContain("cargo test");
    // No check result anywhere claims the edited command as the check's evidence.
    const results = events.flatMap((event) =>
      event.body.type === "criteria-checked" ? event.body.results : [],
    );
    expect(results.some((result) => result.passed)).toBe(false);
    expect(results.some((result) => result.ranAs !== undefined)).toBe(false);
  }, 120_000);

  it("a check command under 'ask before every command' waits for a click, then verifies", async () => {
    const store = new EventStore(world.db);
    const orch = world.orchestrator({
      log: store,
      runningRuns: async () => [],
      checkpointsOf: async () => CheckpointPolicy.parse({ commands: "ask-always" }),
    });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "create `a.txt` containing `hi`",
      mode: "agent",
      actor,
    });
    // Issue #15.5: the check asks before any work too (the baseline), not only after the action.
    const check = await world.waitForApproval("command");
    expect(commandOf(check)).toBe("grep -n -F -m 3 -- hi a.txt");
    expect(JSON.parse(check.payload).thought).toContain("Check before any work");
    // Nothing moves until a person clicks: no baseline, no action.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await world.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("RUNNING");
    let view = await world.view();
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(root?.baseline).toBeUndefined();
    expect(root?.cycles).toHaveLength(0);
    await answerUntilEnded(orch, runId, () => ({ decision: "approved" }));
    view = await world.view();
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    // Red before the write (a.txt did not exist), green after: the approval of exactly this check
    // covered it after the action too.
    const verified = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(verified?.baseline?.results).toMatchObject([{ index: 0, result: { passed: false } }]);
    expect(verified?.evidence).toBe("red-to-green");
    const ran = (await store.read(world.sessionId)).flatMap((event) =>
      event.body.type === "check-ran" ? [event.body] : [],
    );
    // First it asked (and did not run), then it ran with the person's bound approval.
    expect(ran.map((entry) => entry.status)).toEqual(expect.arrayContaining(["ask", "ok"]));
  }, 120_000);

  it("a check already green before any work is flagged and does not verify the intention", async () => {
    const store = new EventStore(world.db);
    const orch = world.orchestrator({ log: store, runningRuns: async () => [] });
    // The project's README already says `# Verified`: its check is green before anything is done.
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "create `README.md` containing `Verified`",
      mode: "agent",
      actor,
    });
    await world.approveUntilEnded(orch, runId);
    const view = await world.view();
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(root?.contract).toEqual([{ kind: "FILE_CONTAINS", path: "README.md", text: "Verified" }]);
    // The baseline ran before the first action, through the dispatch, and the check was already green.
    expect(root?.baseline?.results).toMatchObject([{ index: 0, result: { passed: true } }]);
    const events = await store.read(world.sessionId);
    const baselined = events.findIndex((event) => event.body.type === "checks-baselined");
    const firstCycle = events.findIndex((event) => event.body.type === "cycle-started");
    expect(baselined).toBeGreaterThan(-1);
    expect(baselined).toBeLessThan(firstCycle);
    expect(events.some((event) => event.body.type === "check-ran" && event.body.phase === "baseline")).toBe(
      true,
    );
    expect(root?.status).not.toBe("VERIFIED");
    expect(root?.reason).toContain("already green before any work");
    expect(view.runs[runId]?.status).not.toBe("VERIFIED");
  }, 120_000);
});

describe("test results, stored", () => {
  it("a pytest run's counts are stored in the log (SQLite) with the check that ran it", async () => {
    const store = new EventStore(world.db);
    const orch = world.orchestrator({ log: store, runningRuns: async () => [] });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "create `test_calc.py` containing `def test_add(): assert 1 + 1 == 2` and then run `python3 -m pytest -q -p no:cacheprovider test_calc.py`",
      mode: "agent",
      actor,
    });
    await world.approveUntilEnded(orch, runId);
    // Read back from the database, as a restarted server or the replay would.
    const events = await new EventStore(world.db).read(world.sessionId);
    const counted = events.flatMap((event) => {
      if (event.body.type === "cycle-result") return event.body.tests ? [event.body.tests] : [];
      if (event.body.type === "criteria-checked")
        return event.body.results.flatMap((result) => (result.tests ? [result.tests] : []));
      return [];
    });
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.at(-1)).toMatchObject({ runner: "pytest", passed: 1, failed: 0, failingTests: [] });
    expect((await world.view()).runs[runId]?.status).toBe("VERIFIED");
  }, 120_000);
});
