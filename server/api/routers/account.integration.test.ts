import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { accountRouter } from "@/server/api/routers/account";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";

vi.mock("@/server/app-context", () => ({ appContext: () => ({}) }));

/**
 * A person's own settings through tRPC on real SQLite (issue #20.3): saved and read back per person,
 * refused whole (and nothing lost) when invalid, never another person's.
 */
let db: PrismaClient;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(async () => cleanup());

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: unknown) => (error instanceof TRPCError ? error.code : String(error)),
  );

describe("account.settings", () => {
  it("keeps each person's own layer, and refuses bad input without losing the saved one", async () => {
    const { user } = await seedSession(db, "account");
    const other = await db.user.create({ data: { email: "other@example.com", name: "Other" } });
    const mine = accountRouter.createCaller({ db, user, token: null });
    const theirs = accountRouter.createCaller({ db, user: other, token: null });

    expect(await mine.settings()).toEqual({ settings: {} });
    const saved = {
      model: { name: "person-model", timeoutMs: 30_000 },
      checkpoints: { commands: "ask-always" as const },
      limits: { maxIterations: 4 },
      budgets: { maxCostUsd: 0.5 },
    };
    await mine.saveSettings(saved);
    expect(await mine.settings()).toEqual({ settings: saved });
    expect(await theirs.settings()).toEqual({ settings: {} });

    // An unknown key, a value out of range, a checkpoint value that does not exist: refused whole.
    const bad = [
      { model: { provider: "evil" } },
      { limits: { maxIterations: 0 } },
      { checkpoints: { commands: "sometimes" } },
      { sandbox: { cpus: 8 } },
    ];
    for (const input of bad)
      expect(await codeOf(mine.saveSettings(input as never)), JSON.stringify(input)).toBe("BAD_REQUEST");
    expect(await mine.settings()).toEqual({ settings: saved });

    await mine.saveSettings({});
    expect(await mine.settings()).toEqual({ settings: {} });
  });

  it("is refused to API tokens (it reaches the person's runs in every team)", async () => {
    const { user, project } = await seedSession(db, "account-token");
    const token = {
      tokenId: "t",
      name: "ci",
      teamId: project.teamId,
      projectIds: null,
      role: "member" as const,
    };
    const caller = accountRouter.createCaller({ db, user, token } as never);
    expect(await codeOf(caller.settings())).toBe("FORBIDDEN");
    expect(await codeOf(caller.saveSettings({ model: { name: "x" } }))).toBe("FORBIDDEN");
  });
});
