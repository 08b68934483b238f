import { describe, expect, it } from "vitest";
import { arborMetadataOf } from "@/server/domain/events/trace-schema";
import { EventStore } from "@/server/events/store";
import { intentMap, recordsFromEvents, toJsonl } from "@/server/governance/ledger/export";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import { validateJsonSchema } from "@/testing/ledger/agent-trace-schema";

const world = orchestratorWorld({ repoName: "Ledgered" });
const { actor } = world;

describe("the trace ledger wired into the engine", () => {
  it("records each cycle's own writes as schema-valid trace-recorded events", async () => {
    const store = new EventStore(world.db);
    const orch = world.orchestrator({ log: store, traceLedger: true });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `printf 'a\\nb\\n' > top.txt` and then run `echo more >> README.md` and then run `cat top.txt`",
      mode: "agent",
      actor,
    });
    for (let i = 0; i < 600; i++) {
      const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
      if (run.status !== "RUNNING") break;
      const pending = await world.db.approval.findFirst({
        where: { sessionId: world.sessionId, status: "PENDING" },
      });
      if (pending)
        await orch.decide({
          sessionId: world.sessionId,
          approvalId: pending.id,
          decision: "approved",
          reason: null,
          actor,
        });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await orch.idle();
    expect((await world.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("VERIFIED");

    const events = await store.read(world.sessionId);
    const traced = events.filter((event) => event.body.type === "trace-recorded");
    expect(traced).toHaveLength(2); // `cat` changed nothing
    const records = recordsFromEvents(events);
    for (const record of records) expect(validateJsonSchema(record)).toEqual([]);
    expect(
      records.map((record) =>
        record.files.map((file) => [
          file.path,
          file.conversations[0]?.ranges.map((r) => [r.start_line, r.end_line]),
        ]),
      ),
    ).toEqual([[["top.txt", [[1, 2]]]], [["README.md", [[2, 2]]]]]);
    expect(arborMetadataOf(records[0] as never)).toMatchObject({
      run_id: runId,
      check_result: "SUCCESS",
      baseline: "snapshot",
    });
    // Each command was approved by a person, who is named in the ledger.
    expect(records.map((record) => arborMetadataOf(record)?.approver)).toEqual(["Ada", "Ada"]);
    expect(toJsonl(records).split("\n")).toHaveLength(3);
    expect(intentMap(records)).toContain("| `top.txt` | 2 | 1 | 1 |");
  });
});
