import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { projectRouter } from "@/server/api/routers/project";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";

/** A project's sandbox resources through its router: validated against the server's caps, tenant-checked. */
let db: PrismaClient;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterEach(async () => cleanup());

async function world() {
  const owner = await seedSession(db, "owner");
  const outsider = await seedSession(db, "outsider");
  const viewer = await db.user.create({ data: { email: "viewer@example.com", name: "Viewer" } });
  await db.membership.create({ data: { userId: viewer.id, teamId: owner.team.id, role: "viewer" } });
  const as = (user: { id: string; name: string; email: string }) =>
    projectRouter.createCaller({ db, user: { id: user.id, name: user.name, email: user.email } });
  return { owner, outsider, viewer, as };
}

describe("project sandbox resources", () => {
  it("saves values within the caps and shows what sessions get, defaults for the rest", async () => {
    const { owner, as } = await world();
    const projectId = owner.project.id;
    const before = await as(owner.user).getById({ projectId });
    expect(before.resources.own).toEqual({});
    expect(before.resources.effective).toEqual({ cpus: 1, memoryMb: 1024, pids: 256, workspaceMb: 2048 });
    const saved = await as(owner.user).updateResources({
      projectId,
      resources: { cpus: 1.5, memoryMb: 768 },
    });
    expect(saved.effective).toEqual({ cpus: 1.5, memoryMb: 768, pids: 256, workspaceMb: 2048 });
    const stored = await db.project.findUniqueOrThrow({ where: { id: projectId } });
    expect(JSON.parse(stored.sandboxResources)).toEqual({ cpus: 1.5, memoryMb: 768 });
  });

  it("refuses every value over a cap at once, naming the setting, and keeps what was saved", async () => {
    const { owner, as } = await world();
    const projectId = owner.project.id;
    await as(owner.user).updateResources({ projectId, resources: { pids: 300 } });
    const attempt = as(owner.user).updateResources({
      projectId,
      resources: { cpus: 8, memoryMb: 999_999, workspaceMb: 100 },
    });
    await expect(attempt).rejects.toThrow(/ARBOR_SANDBOX_MAX_CPUS.*ARBOR_SANDBOX_MAX_MEMORY_MB/);
    const stored = await db.project.findUniqueOrThrow({ where: { id: projectId } });
    expect(JSON.parse(stored.sandboxResources)).toEqual({ pids: 300 });
    await expect(as(owner.user).updateResources({ projectId, resources: { memoryMb: 10 } })).rejects.toThrow(
      /64 MB/,
    );
  });

  it("is not for a viewer, nor for another team", async () => {
    const { owner, outsider, viewer, as } = await world();
    const projectId = owner.project.id;
    await expect(as(viewer).updateResources({ projectId, resources: { cpus: 2 } })).rejects.toThrow();
    await expect(as(outsider.user).updateResources({ projectId, resources: { cpus: 2 } })).rejects.toThrow();
    const stored = await db.project.findUniqueOrThrow({ where: { id: projectId } });
    expect(stored.sandboxResources).toBe("{}");
  });
});
