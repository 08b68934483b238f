import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { environmentRouter } from "@/server/api/routers/environment";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createSecretBox, type SecretBox } from "@/server/settings/secret-box";
import { setupCommandHash } from "@/server/setup/detect";
import { sessionEnvironment } from "@/server/setup/environment";
import { createTestDb, seedSession } from "@/testing/db/test-db";

// The router reaches the secret box through the app context.
const app = vi.hoisted(() => ({ box: null as unknown }));
vi.mock("@/server/app-context", () => ({ appContext: () => app }));

let db: PrismaClient;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  app.box = createSecretBox(randomBytes(32));
});
afterEach(async () => cleanup());

async function world() {
  const owner = await seedSession(db, "owner");
  const outsider = await seedSession(db, "outsider");
  const member = await db.user.create({ data: { email: "member@example.com", name: "Member" } });
  await db.membership.create({ data: { userId: member.id, teamId: owner.team.id, role: "member" } });
  const as = (user: { id: string; name: string; email: string }) =>
    environmentRouter.createCaller({ db, user: { id: user.id, name: user.name, email: user.email } });
  return { owner, outsider, member, as, projectId: owner.project.id };
}

describe("environment router", () => {
  it("defaults to registries for setup and Off for the agent, and lets only admins and owners change it", async () => {
    const { owner, member, outsider, as, projectId } = await world();
    const view = await as(member).get({ projectId });
    expect(view.egress.setup.mode).toBe("registries");
    expect(view.egress.agent.mode).toBe("off");
    expect(view.registryHosts).toContain("registry.npmjs.org");
    const egress = {
      ...view.egress,
      agent: { mode: "custom" as const, getHeadOnly: false },
      allowList: ["api.example.com"],
    };
    await expect(as(member).saveNetwork({ projectId, egress })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(as(outsider.user).get({ projectId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const saved = await as(owner.user).saveNetwork({ projectId, egress });
    expect(saved.note).toMatch(/New sessions/);
    expect((await as(member).get({ projectId })).egress.allowList).toEqual(["api.example.com"]);
    await expect(
      as(owner.user).saveNetwork({ projectId, egress: { ...egress, allowList: ["10.0.0.1"] } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("approves exactly the command seen, and a changed command needs a new approval", async () => {
    const { owner, as, projectId } = await world();
    const caller = as(owner.user);
    await caller.saveSetupCommand({ projectId, command: "npm ci" });
    let view = await caller.get({ projectId });
    expect(view.setup).toMatchObject({ command: "npm ci", custom: true, approved: false });
    await expect(
      caller.approveSetup({ projectId, hash: setupCommandHash("npm ci && curl x") }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await caller.approveSetup({ projectId, hash: view.setup.hash ?? "" });
    view = await caller.get({ projectId });
    expect(view.setup.approved).toBe(true);
    await caller.saveSetupCommand({ projectId, command: "npm ci --ignore-scripts" });
    expect((await caller.get({ projectId })).setup.approved).toBe(false);
    // Back to the approved text: approved again (the approval is bound to the text, not to a moment).
    await caller.saveSetupCommand({ projectId, command: "npm ci" });
    expect((await caller.get({ projectId })).setup.approved).toBe(true);
  });

  it("keeps setup secrets sealed: names in the view, values only for the setup exec", async () => {
    const { owner, member, as, projectId } = await world();
    await as(owner.user).setSecret({ projectId, name: "NPM_TOKEN", value: "npm_secret_value_123456" });
    await expect(as(member).setSecret({ projectId, name: "X", value: "y" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(as(owner.user).setSecret({ projectId, name: "PATH", value: "/evil" })).rejects.toMatchObject(
      {
        code: "BAD_REQUEST",
      },
    );
    const view = await as(member).get({ projectId });
    expect(view.secretNames).toEqual(["NPM_TOKEN"]);
    expect(JSON.stringify(view)).not.toContain("npm_secret_value_123456");
    const stored = await db.projectEnvironment.findUniqueOrThrow({ where: { projectId } });
    expect(stored.setupSecrets).not.toContain("npm_secret_value_123456");
    const environment = await sessionEnvironment(db, app.box as SecretBox, owner.project);
    expect((await environment.openSecrets()).env).toEqual({ NPM_TOKEN: "npm_secret_value_123456" });
    await as(owner.user).setSecret({ projectId, name: "NPM_TOKEN", value: null });
    expect((await as(member).get({ projectId })).secretNames).toEqual([]);
  });
});
