import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appRouter } from "@/server/api/root";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createSecretBox } from "@/server/settings/secret-box";
import { createTestDb, seedSession } from "@/testing/db/test-db";

const app = vi.hoisted(() => ({ current: {} as Record<string, unknown> }));
vi.mock("@/server/app-context", () => ({ appContext: () => app.current }));

let db: PrismaClient;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  app.current = { box: createSecretBox(randomBytes(32)) };
});
afterEach(async () => cleanup());

const as = (user: { id: string; name: string; email: string }) => appRouter.createCaller({ db, user });

describe("team webhooks through the router", () => {
  it("an admin adds one and sees its secret once; members and other teams get nothing", async () => {
    const { user, team } = await seedSession(db, "w");
    const member = await db.user.create({ data: { email: "m@example.com", name: "M" } });
    await db.membership.create({ data: { userId: member.id, teamId: team.id, role: "member" } });
    const stranger = (await seedSession(db, "s")).user;

    const added = await as(user).team.addWebhook({ teamId: team.id, url: "https://hooks.example.com/a" });
    expect(added.secret).toMatch(/^whsec_/);
    const listed = await as(user).team.webhooks({ teamId: team.id });
    expect(listed.map((hook) => hook.url)).toEqual(["https://hooks.example.com/a"]);
    expect(JSON.stringify(listed)).not.toContain(added.secret);
    expect(JSON.stringify(listed)).not.toContain("secretSealed");

    await expect(as(member).team.webhooks({ teamId: team.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      as(member).team.addWebhook({ teamId: team.id, url: "https://evil.example.com" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(as(stranger).team.webhooks({ teamId: team.id })).rejects.toThrow();
    await expect(
      as(user).team.addWebhook({ teamId: team.id, url: "ftp://hooks.example.com" }),
    ).rejects.toThrow(/http/);
    // The cloud's metadata service: refused at save, with why (the SSRF filter).
    await expect(
      as(user).team.addWebhook({ teamId: team.id, url: "http://169.254.169.254/latest/meta-data" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/link-local address/) });

    await as(user).team.removeWebhook({ teamId: team.id, webhookId: added.id });
    expect(await as(user).team.webhooks({ teamId: team.id })).toEqual([]);
  });
});
