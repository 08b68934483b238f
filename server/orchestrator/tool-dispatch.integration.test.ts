import { describe, expect, it } from "vitest";
import { EventStore } from "@/server/events/store";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import type { Orchestrator } from "./orchestrator";

/**
 * The product's actions really go through the tool dispatch: a real Orchestrator, SQLite, Docker and
 * the offline model. A history rewrite is refused by the dispatch's gate without ever reaching a
 * person, and a person's edit cannot turn an approved command into one.
 */
const world = orchestratorWorld({ repoName: "Dispatched" });
const { actor, sandboxes } = world;
const orchestrator = (store: EventStore) => world.orchestrator({ log: store, runningRuns: async () => [] });

async function settle(
  orch: Orchestrator,
  runId: string,
  answer: (approval: { command: string | null }) => string | undefined,
) {
  for (let i = 0; i < 600; i++) {
    const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
    if (run.status !== "RUNNING") break;
    const pending = await world.db.approval.findFirst({
      where: { sessionId: world.sessionId, status: "PENDING" },
    });
    if (pending) {
      const payload = JSON.parse(pending.payload) as { command?: string };
      const command = answer({ command: payload.command ?? null });
      await orch.decide({
        sessionId: world.sessionId,
        approvalId: pending.id,
        decision: "approved",
        reason: null,
        actor,
        ...(command ? { command } : {}),
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await orch.idle();
}

describe("the engine's actions go through the tool dispatch", () => {
  it("refuses a history rewrite at the gate, without asking anyone, and the run goes on to fail", async () => {
    const store = new EventStore(world.db);
    const orch = orchestrator(store);
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `git commit --amend -m rewritten`",
      mode: "agent",
      actor,
    });
    let asked = 0;
    await settle(orch, runId, () => {
      asked++;
      return undefined;
    });
    expect((await world.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("FAILED");
    expect(asked).toBe(0);
    const judged = (await store.read(world.sessionId)).flatMap((event) =>
      event.body.type === "cycle-judged" ? [event.body] : [],
    );
    expect(judged.length).toBeGreaterThan(0);
    for (const cycle of judged) {
      expect(cycle.judgedBy).toBe("policy");
      expect(cycle.reason).toContain("No tool may force-push or rewrite git history");
    }
  });

  it("re-gates a person's edit: an approved command edited into a force-push never runs", async () => {
    const store = new EventStore(world.db);
    const orch = orchestrator(store);
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `touch made.txt`",
      mode: "agent",
      actor,
    });
    await settle(orch, runId, () => "git push --force origin HEAD");
    const events = await store.read(world.sessionId);
    const results = events.flatMap((event) => (event.body.type === "cycle-result" ? [event.body] : []));
    expect(results.length).toBeGreaterThan(0);
    // Nothing ran: every cycle was blocked before the sandbox.
    for (const result of results) {
      expect(result.exitCode).toBeNull();
      expect(result.error).toContain("No tool may force-push or rewrite git history");
    }
    const sandbox = await sandboxes.get(world.sessionId);
    const made = await sandbox?.exec("test -e made.txt && echo yes || echo no");
    expect(made?.stdout ?? "no\n").toBe("no\n");
  });
});
