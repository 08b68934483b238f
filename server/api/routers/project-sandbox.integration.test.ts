import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { projectSandboxRouter } from "@/server/api/routers/project-sandbox";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";

// The router asks the engine for its runtimes and the image builds through the app context.
const app = vi.hoisted(() => ({
  runtimes: ["runc"] as string[],
  sandboxes: { runtimes: async () => app.runtimes },
  projectImages: { isBuilding: () => false, rebuild: async () => ({ image: "x", source: "server" }) },
}));
vi.mock("@/server/app-context", () => ({ appContext: () => app }));

let db: PrismaClient;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  app.runtimes = ["runc"];
});
afterEach(async () => cleanup());

async function world() {
  const owner = await seedSession(db, "owner");
  const outsider = await seedSession(db, "outsider");
  const member = await db.user.create({ data: { email: "member@example.com", name: "Member" } });
  await db.membership.create({ data: { userId: member.id, teamId: owner.team.id, role: "member" } });
  const as = (user: { id: string; name: string; email: string }) =>
    projectSandboxRouter.createCaller({ db, user: { id: user.id, name: user.name, email: user.email } });
  return { owner, outsider, member, as };
}

describe("project sandbox settings", () => {
  it("refuses gVisor while the engine lacks it, saying how to fix it, and keeps runc", async () => {
    const { owner, as } = await world();
    const projectId = owner.project.id;
    await expect(as(owner.user).setRuntime({ projectId, runtime: "runsc" })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: expect.stringContaining("scripts/ensure-runsc.sh"),
    });
    expect(await as(owner.user).get({ projectId })).toMatchObject({
      runtime: "runc",
      gvisorAvailable: false,
    });

    app.runtimes = ["runc", "runsc"];
    await as(owner.user).setRuntime({ projectId, runtime: "runsc" });
    expect((await db.project.findUniqueOrThrow({ where: { id: projectId } })).sandboxRuntime).toBe("runsc");
    expect(await as(owner.user).get({ projectId })).toMatchObject({
      runtime: "runsc",
      gvisorAvailable: true,
    });
  });

  it("lets only admins and owners change the runtime, and nobody outside the team see it", async () => {
    const { owner, outsider, member, as } = await world();
    app.runtimes = ["runc", "runsc"];
    const projectId = owner.project.id;
    await expect(as(member).setRuntime({ projectId, runtime: "runsc" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(as(outsider.user).get({ projectId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(as(outsider.user).setRuntime({ projectId, runtime: "runc" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      as(owner.user).setRuntime({ projectId, runtime: "kata" as unknown as "runc" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await db.project.findUniqueOrThrow({ where: { id: projectId } })).sandboxRuntime).toBe("runc");
  });
});
