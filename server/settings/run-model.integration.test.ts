import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { openedKeys } from "@/server/events/opened-keys";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createOfflineModel } from "@/server/model";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { type FakeModelServer, startFakeModelServer } from "@/testing/fake-model/server";
import { FakeSandboxProvider } from "@/testing/harness/fakes";
import { testOrchestrator } from "@/testing/harness/orchestrator-deps";
import { saveSettings } from "./model-settings";
import { modelForSession } from "./run-model";
import { createSecretBox, type SecretBox } from "./secret-box";

/**
 * A run whose model comes from the project's stored settings (Anthropic, key sealed in SQLite), over
 * HTTP to the fake server. A command prints the key, as a careless `env` would: neither the event
 * log nor the server log may contain it afterwards.
 */
const KEY = "sk-ant-run-secret-0123456789abcdef";

let fake: FakeModelServer;
let db: PrismaClient;
let cleanup: () => Promise<void>;
let box: SecretBox;

beforeAll(async () => {
  fake = await startFakeModelServer();
});
afterAll(async () => fake.close());
beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  box = createSecretBox(randomBytes(32));
});
afterEach(async () => cleanup());

function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: "trace" }, stream), lines };
}

function orchestrator(logger: pino.Logger, sandbox: FakeSandboxProvider, secretBox: SecretBox) {
  return testOrchestrator({
    log: new EventStore(db, () => openedKeys()),
    model: createOfflineModel(),
    modelForRun: (sessionId, overrides) =>
      modelForSession({ db, box: secretBox, environment: {} }, sessionId, overrides),
    sandboxes: sandbox,
    commandTimeoutMs: 5_000,
    sandboxImage: "fake",
    logger,
    checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto", commands: "never-ask" }),
    sleep: async () => undefined,
  });
}

describe("runs use the resolved project settings", () => {
  it("records provider and model in run-started, talks to the provider with the key, and logs no key", async () => {
    const { project, session, user } = await seedSession(db, "run");
    await saveSettings(
      db,
      box,
      { kind: "project", projectId: project.id },
      {
        provider: "anthropic",
        baseUrl: fake.url,
        modelName: "fake-model",
        timeoutMs: 10_000,
        apiKey: { action: "set", value: KEY },
      },
      user.id,
    );
    const { logger, lines } = capturedLogger();
    const sandbox = new FakeSandboxProvider((command) =>
      command.includes("printenv") ? { stdout: `ANTHROPIC_API_KEY=${KEY}\n` } : {},
    );
    const orch = orchestrator(logger, sandbox, box);
    const before = fake.requests.length;
    const { runId } = await orch.startRun({
      sessionId: session.id,
      task: "run `printenv ANTHROPIC_API_KEY`",
      mode: "agent",
      actor: { userId: user.id, name: user.name },
      // Run overrides beat the project's model name.
      modelOverrides: { modelName: "fake-override", timeoutMs: 8_000 },
    });
    await orch.idle();

    const events = await new EventStore(db).read(session.id);
    const started = events.find((event) => event.body.type === "run-started");
    expect(started?.body).toMatchObject({
      model: { id: "anthropic:fake-override", provider: "anthropic", offline: false },
    });
    expect(foldEvents(events).runs[runId]?.status).toBe("VERIFIED");
    const sent = fake.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(
      sent.every((request) => request.path === "/v1/messages" && request.headers["x-api-key"] === KEY),
    ).toBe(true);
    expect(sent.every((request) => (request.body as { model?: string }).model === "fake-override")).toBe(
      true,
    );
    expect(sandbox.actions).toContain("printenv ANTHROPIC_API_KEY");

    const stored = await db.event.findMany({ where: { sessionId: session.id } });
    const everything = [...stored.map((row) => row.payload), ...lines].join("\n");
    expect(everything).toContain("[redacted]");
    expect(everything).not.toContain(KEY);
  });

  it("runs on the built-in offline model when the person picked it, whatever the settings name", async () => {
    const { project, session, user } = await seedSession(db, "picked-offline");
    await saveSettings(
      db,
      box,
      { kind: "project", projectId: project.id },
      {
        provider: "anthropic",
        baseUrl: fake.url,
        modelName: "fake-model",
        timeoutMs: null,
        apiKey: { action: "set", value: KEY },
      },
      user.id,
    );
    const { logger } = capturedLogger();
    const orch = orchestrator(logger, new FakeSandboxProvider(() => ({})), box);
    const before = fake.requests.length;
    const { runId } = await orch.startRun({
      sessionId: session.id,
      task: "run `ls`",
      mode: "agent",
      actor: { userId: user.id, name: user.name },
      modelOverrides: { offline: true },
    });
    await orch.idle();
    const events = await new EventStore(db).read(session.id);
    expect(events.find((event) => event.body.type === "run-started")?.body).toMatchObject({
      model: { id: "offline-heuristics", offline: true },
    });
    expect(foldEvents(events).runs[runId]?.status).toBe("VERIFIED");
    // The settings' model was never asked.
    expect(fake.requests.length).toBe(before);
  });

  it("refuses to start a run whose stored key was sealed with another secret key", async () => {
    const { project, session, user } = await seedSession(db, "rotated");
    await saveSettings(
      db,
      box,
      { kind: "project", projectId: project.id },
      {
        provider: "openai",
        baseUrl: fake.url,
        modelName: null,
        timeoutMs: null,
        apiKey: { action: "set", value: KEY },
      },
      user.id,
    );
    const { logger } = capturedLogger();
    const orch = orchestrator(logger, new FakeSandboxProvider(() => ({})), createSecretBox(randomBytes(32)));
    await expect(
      orch.startRun({
        sessionId: session.id,
        task: "run `ls`",
        mode: "agent",
        actor: { userId: user.id, name: user.name },
      }),
    ).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: expect.stringMatching(/different ARBOR_SECRET_KEY/),
    });
    expect(await db.event.count({ where: { sessionId: session.id } })).toBe(0);
  });
});
