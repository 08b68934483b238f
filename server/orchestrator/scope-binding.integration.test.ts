import { describe, expect, it } from "vitest";
import { CheckpointPolicy, type CheckpointPolicyInput } from "@/server/domain/policy/checkpoints";
import { EventStore } from "@/server/events/store";
import { renderIntentsFile } from "@/server/tools/intents-file";
import { ofType } from "@/testing/events/events";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * #15.6 in a live run (real Orchestrator, SQLite, Docker, the fake model over HTTP): the model selects
 * the project intent INT-001 (owned_scope docs/**) in its act turn and then writes a file. Inside the
 * scope the write lands; outside it the dispatch refuses it with the reason and nothing is written —
 * even though this project pre-approves writes, so no person would have been asked. With the project
 * setting "ask", the same write waits for a person instead.
 */
const world = orchestratorWorld({ repoName: "Scoped", fakeModel: true });

const INTENTS = renderIntentsFile([
  {
    id: "INT-001",
    name: "Documentation",
    status: "IN_PROGRESS",
    owned_scope: ["docs/**"],
    constraints: [],
    acceptance_criteria: [],
  },
]);

async function run(task: string, policy: CheckpointPolicyInput, until: "ended" | "asked") {
  const store = new EventStore(world.db);
  const orch = world.orchestrator({
    log: store,
    model: world.scriptedModel("select-intent-then-write"),
    runningRuns: async () => [],
    limits: { maxDepth: 10, maxCyclesPerIntention: 1, maxIterations: 2, wallClockMs: 120_000 },
    workspaceOf: async () => ({
      repoPath: world.repoPath,
      branch: `arbor/scoped-${world.sessionId}`,
      intentsFile: INTENTS,
    }),
    checkpointsOf: async () =>
      CheckpointPolicy.parse({ decompositions: "auto", preApproved: ["write"], ...policy }),
  });
  const { runId } = await orch.startRun({
    sessionId: world.sessionId,
    task,
    mode: "agent",
    actor: world.actor,
  });
  for (let i = 0; i < 1_200; i++) {
    const status = (await world.db.run.findUniqueOrThrow({ where: { id: runId } })).status;
    if (status !== "RUNNING") break;
    if (
      until === "asked" &&
      (await world.db.approval.count({ where: { runId, status: "PENDING", kind: "tool" } })) > 0
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (until === "asked") await orch.stop(world.sessionId, runId);
  await orch.idle();
  const events = await store.read(world.sessionId);
  const sandbox = await world.sandboxes.get(world.sessionId);
  if (!sandbox) throw new Error("no sandbox");
  return { events, runId, sandbox };
}

describe("a live run bound to the project intent it selected", () => {
  it("refuses a write outside the intent's owned_scope with the reason, and writes nothing", async () => {
    const { events, sandbox } = await run("for INT-001 create `src/app.js` containing `hacked`", {}, "ended");
    expect(ofType(events, "intent-selected")[0]).toMatchObject({
      intentId: "INT-001",
      ownedScope: ["docs/**"],
    });
    const results = ofType(events, "cycle-result");
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]?.error).toMatch(
      /Scope Violation: INT-001 \(owned_scope docs\/\*\*\) is not authorized to edit src\/app\.js/,
    );
    const listing = await sandbox.exec("test -e src/app.js && echo present || echo absent");
    expect(listing.stdout.trim()).toBe("absent");
  });

  it("lets a write inside the owned_scope through", async () => {
    const { events, sandbox } = await run(
      "for INT-001 create `docs/notes.md` containing `fine`",
      {},
      "ended",
    );
    expect(ofType(events, "cycle-result").some((result) => result.error === null)).toBe(true);
    expect(await sandbox.readFile("docs/notes.md")).toBe("fine\n");
  });

  it("asks a person instead when the project says so", async () => {
    const { events, sandbox } = await run(
      "for INT-001 create `src/other.js` containing `maybe`",
      { outOfScopeWrites: "ask" },
      "asked",
    );
    const asked = ofType(events, "approval-requested").filter((request) => request.kind === "tool");
    expect(asked[0]?.call).toMatchObject({ tool: "fs.write", input: { path: "src/other.js" } });
    const listing = await sandbox.exec("test -e src/other.js && echo present || echo absent");
    expect(listing.stdout.trim()).toBe("absent");
  });
});
