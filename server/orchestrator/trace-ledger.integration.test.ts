import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { intentMap, recordsFromEvents, toJsonl } from "@/server/governance/ledger/export";
import { validateJsonSchema } from "@/server/governance/ledger/json-schema-subset";
import { arborMetadataOf } from "@/server/governance/ledger/trace-schema";
import { logger } from "@/server/logger";
import { createOfflineModel } from "@/server/model";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DEFAULT_LIMITS } from "@/server/riva/limits";
import { DockerSandboxProvider } from "@/server/sandbox";
import { createTestDb, seedSession } from "@/server/testing/test-db";
import { Orchestrator } from "./orchestrator";

let repoDir: string;
let repoPath: string;
const sandboxes = new DockerSandboxProvider();
const actor = { userId: "u1", name: "Ada" };

beforeAll(async () => {
  repoDir = await mkdtemp(path.join(tmpdir(), "arbor-ledger-orch-"));
  repoPath = path.join(repoDir, "project.git");
  await createEmptyRepository(repoPath, "Ledgered");
});
afterAll(async () => rm(repoDir, { recursive: true, force: true }));

let db: PrismaClient;
let cleanup: () => Promise<void>;
let sessionId: string;
beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  sessionId = (await seedSession(db)).session.id;
  return async () => {
    await (await sandboxes.get(sessionId))?.dispose();
    await cleanup();
  };
});

describe("the trace ledger wired into the engine", () => {
  it("records each cycle's own writes as schema-valid trace-recorded events", async () => {
    const store = new EventStore(db);
    const orch = new Orchestrator({
      log: store,
      model: createOfflineModel(),
      sandboxes,
      limits: DEFAULT_LIMITS,
      clock: Date.now,
      commandTimeoutMs: 30_000,
      sandboxImage: "arbor-sandbox:latest",
      logger,
      traceLedger: true,
      workspaceOf: async () => ({ repoPath, branch: `arbor/session-${sessionId}` }),
      runningRuns: async () => [],
    });
    const { runId } = await orch.startRun({
      sessionId,
      task: "run `printf 'a\\nb\\n' > top.txt` and then run `echo more >> README.md` and then run `cat top.txt`",
      mode: "agent",
      actor,
    });
    for (let i = 0; i < 600; i++) {
      const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
      if (run.status !== "RUNNING") break;
      const pending = await db.approval.findFirst({ where: { sessionId, status: "PENDING" } });
      if (pending)
        await orch.decide({ sessionId, approvalId: pending.id, decision: "approved", reason: null, actor });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await orch.idle();
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("VERIFIED");

    const events = await store.read(sessionId);
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
