import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { settingsRouter } from "@/server/api/routers/settings";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createSecretBox } from "@/server/settings/secret-box";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { type FakeModelServer, startFakeModelServer } from "@/testing/fake-model/server";

// The router reaches the secret box and the environment layer through the app context.
const app = vi.hoisted(() => ({ box: null as unknown, environment: {} as Record<string, unknown> }));
vi.mock("@/server/app-context", () => ({ appContext: () => app }));

const TEAM_KEY = "sk-team-secret-0123456789abcdef";
const PROJECT_KEY = "sk-project-secret-fedcba9876543210";

let db: PrismaClient;
let cleanup: () => Promise<void>;
let fake: FakeModelServer;

beforeAll(async () => {
  fake = await startFakeModelServer();
});
afterAll(async () => fake.close());
beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  app.box = createSecretBox(randomBytes(32));
  app.environment = {};
});
afterEach(async () => cleanup());

const keep = { action: "keep" } as const;
const settings = (overrides: Record<string, unknown> = {}) => ({
  provider: null,
  baseUrl: null,
  modelName: null,
  timeoutMs: null,
  apiKey: keep,
  ...overrides,
});

async function world() {
  const owner = await seedSession(db, "owner");
  const outsider = await seedSession(db, "outsider");
  const member = await db.user.create({ data: { email: "member@example.com", name: "Member" } });
  const viewer = await db.user.create({ data: { email: "viewer@example.com", name: "Viewer" } });
  await db.membership.create({ data: { userId: member.id, teamId: owner.team.id, role: "member" } });
  await db.membership.create({ data: { userId: viewer.id, teamId: owner.team.id, role: "viewer" } });
  const as = (user: { id: string; name: string; email: string }) =>
    settingsRouter.createCaller({ db, user: { id: user.id, name: user.name, email: user.email } });
  return { owner, outsider, as, member, viewer };
}

describe("settings router", () => {
  it("stores keys sealed, returns only set/not set and the last 4 characters, and layers project over team", async () => {
    const { owner, as } = await world();
    const caller = as(owner.user);
    const saved = await caller.updateTeam({
      teamId: owner.team.id,
      settings: settings({
        provider: "openai",
        modelName: "gpt-team",
        apiKey: { action: "set", value: TEAM_KEY },
      }),
    });
    expect(saved.apiKey).toEqual({ set: true, hint: "cdef" });
    await caller.updateProject({
      projectId: owner.project.id,
      settings: settings({ modelName: "gpt-project", timeoutMs: 5_000 }),
    });

    const row = await db.modelSettings.findUniqueOrThrow({ where: { teamId: owner.team.id } });
    expect(row.apiKeySealed).toMatch(/^v1\./);
    expect(row.apiKeySealed).not.toContain(TEAM_KEY);

    const view = await caller.project({ projectId: owner.project.id });
    const byField = Object.fromEntries(view.resolved.map((line) => [line.field, line]));
    expect(byField.modelName).toMatchObject({ value: "gpt-project", source: "project" });
    expect(byField.provider).toMatchObject({ value: "OpenAI", source: "team" });
    expect(byField.apiKey).toMatchObject({ value: "set (ends in cdef)", source: "team" });
    expect(byField.timeoutMs).toMatchObject({ value: "5000 ms", source: "project" });
    expect(byField.baseUrl).toMatchObject({ value: "https://api.openai.com/v1", source: "default" });

    const everything = JSON.stringify([saved, view, await caller.team({ teamId: owner.team.id })]);
    expect(everything).not.toContain(TEAM_KEY);
    expect(everything).not.toContain(TEAM_KEY.slice(0, -4));
  });

  it("hides other teams' settings (NOT_FOUND) and enforces roles", async () => {
    const { owner, outsider, as, member, viewer } = await world();
    const stranger = as(outsider.user);
    await expect(stranger.team({ teamId: owner.team.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(stranger.project({ projectId: owner.project.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      stranger.updateTeam({ teamId: owner.team.id, settings: settings({ modelName: "x" }) }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      stranger.updateProject({ projectId: owner.project.id, settings: settings({ modelName: "x" }) }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      stranger.testProjectConnection({ projectId: owner.project.id, settings: settings() }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      stranger.testTeamConnection({ teamId: owner.team.id, settings: settings() }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    // A member may change the project but not the team; a viewer neither.
    await expect(
      as(member).updateTeam({ teamId: owner.team.id, settings: settings({ modelName: "x" }) }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await as(member).updateProject({ projectId: owner.project.id, settings: settings({ modelName: "m" }) });
    await expect(
      as(viewer).updateProject({ projectId: owner.project.id, settings: settings({ modelName: "v" }) }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      as(member).testTeamConnection({ teamId: owner.team.id, settings: settings() }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await as(viewer).project({ projectId: owner.project.id })).canEdit).toBe(false);
    expect(await db.modelSettings.count({ where: { teamId: owner.team.id } })).toBe(0);
  });

  it("shows the model server's address only to people who can change the settings (issue #16.10)", async () => {
    const { owner, as, member, viewer } = await world();
    const internal = "http://models.internal.example:8080/v1";
    await as(owner.user).updateTeam({
      teamId: owner.team.id,
      settings: settings({ provider: "openai-compatible", baseUrl: internal, modelName: "m" }),
    });
    const ownerView = JSON.stringify(await as(owner.user).project({ projectId: owner.project.id }));
    expect(ownerView).toContain("models.internal.example");
    for (const who of [viewer]) {
      const seen = await as(who).project({ projectId: owner.project.id });
      expect(JSON.stringify(seen)).not.toContain("models.internal.example");
      expect(seen.team).toMatchObject({ baseUrl: null, baseUrlHidden: true });
      expect(seen.resolved.find((row) => row.field === "baseUrl")?.value).toMatch(/^hidden/);
    }
    // The team page: only admins and owners change team settings, so members do not see it there.
    for (const who of [member, viewer]) {
      const seen = await as(who).team({ teamId: owner.team.id });
      expect(JSON.stringify(seen)).not.toContain("models.internal.example");
      expect(seen.settings.baseUrlHidden).toBe(true);
    }
    expect((await as(owner.user).team({ teamId: owner.team.id })).settings.baseUrl).toBe(internal);
  });

  it("refuses bad input clearly and keeps a stored key off a new server", async () => {
    const { owner, as } = await world();
    const caller = as(owner.user);
    await expect(
      caller.updateProject({ projectId: owner.project.id, settings: settings({ baseUrl: "ftp://x" }) }),
    ).rejects.toThrow(/must start with http/);
    await caller.updateProject({
      projectId: owner.project.id,
      settings: settings({
        provider: "openai-compatible",
        baseUrl: fake.url,
        apiKey: { action: "set", value: PROJECT_KEY },
      }),
    });
    await expect(
      caller.updateProject({
        projectId: owner.project.id,
        settings: settings({ provider: "openai-compatible", baseUrl: "http://elsewhere.example/v1" }),
      }),
    ).rejects.toThrow(/enter the API key again/);
    const cleared = await caller.updateProject({
      projectId: owner.project.id,
      settings: settings({
        provider: "openai-compatible",
        baseUrl: "http://elsewhere.example/v1",
        apiKey: { action: "clear" },
      }),
    });
    expect(cleared.apiKey).toEqual({ set: false, hint: null });
  });

  it("tests a connection with the entered settings and the stored key, and reports a bad URL", async () => {
    const { owner, as } = await world();
    const caller = as(owner.user);
    const scope = { projectId: owner.project.id };
    await caller.updateProject({
      projectId: owner.project.id,
      settings: settings({
        provider: "anthropic",
        baseUrl: fake.url,
        modelName: "fake-model",
        apiKey: { action: "set", value: PROJECT_KEY },
      }),
    });
    const before = fake.requests.length;
    const ok = await caller.testProjectConnection({
      ...scope,
      settings: settings({ provider: "anthropic", baseUrl: fake.url, modelName: "fake-model" }),
    });
    expect(ok).toMatchObject({ ok: true, model: "fake-model" });
    const sent = fake.requests.slice(before);
    expect(sent.map((request) => [request.path, request.headers["x-api-key"]])).toEqual([
      ["/v1/messages", PROJECT_KEY],
    ]);

    const badUrl = await caller.testProjectConnection({
      ...scope,
      settings: settings({
        provider: "openai-compatible",
        baseUrl: "http://127.0.0.1:65534/v1",
        apiKey: { action: "clear" },
      }),
    });
    expect(badUrl).toMatchObject({ ok: false, reason: "unreachable" });
    expect(badUrl.ok || badUrl.message).toMatch(/is not reachable \(ECONNREFUSED\)\. Check the base URL/);
    expect(JSON.stringify(badUrl)).not.toContain(PROJECT_KEY);
  });

  it("explains a key sealed with another ARBOR_SECRET_KEY instead of failing", async () => {
    const { owner, as } = await world();
    const caller = as(owner.user);
    await caller.updateTeam({
      teamId: owner.team.id,
      settings: settings({ provider: "openai", apiKey: { action: "set", value: TEAM_KEY } }),
    });
    app.box = createSecretBox(randomBytes(32));
    const view = await caller.project({ projectId: owner.project.id });
    expect(view.keyError).toMatch(/different ARBOR_SECRET_KEY/);
    expect(view.resolved.find((line) => line.field === "apiKey")?.value).toBe("not set");
    const tested = await caller.testTeamConnection({
      teamId: owner.team.id,
      settings: settings({ provider: "openai" }),
    });
    expect(tested).toMatchObject({ ok: false, message: expect.stringMatching(/different ARBOR_SECRET_KEY/) });
  });
});
