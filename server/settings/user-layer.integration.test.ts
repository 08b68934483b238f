import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RivaLimits } from "@/server/domain/session/limits";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { sessionRunBounds } from "./repo-run-settings";
import { resolveProjectSettings } from "./resolve";
import { createSecretBox } from "./secret-box";
import { savePersonSettings } from "./user-layer";

/**
 * The person layer on real SQLite: a person's own model name and lower limits reach the runs of the
 * sessions they open, and not another member's sessions in the same project.
 */
let db: PrismaClient;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(async () => cleanup());

const server = {
  limits: RivaLimits.parse({
    maxDepth: 3,
    maxCyclesPerIntention: 3,
    maxIterations: 10,
    wallClockMs: 600_000,
  }),
  budget: null,
  resources: {
    defaults: { cpus: 1, memoryMb: 1024, pids: 256, workspaceMb: 2048 },
    caps: { cpus: 2, memoryMb: 4096, pids: 1024, workspaceMb: 2048 },
  },
};

describe("the person layer", () => {
  it("joins the resolver for the opener's sessions only, and only ever lowers limits", async () => {
    const { user, project, session } = await seedSession(db, "person");
    const other = await db.user.create({ data: { email: "other@example.com", name: "Other" } });
    await db.membership.create({ data: { userId: other.id, teamId: project.teamId, role: "member" } });
    const otherSession = await db.session.create({
      data: { projectId: project.id, createdById: other.id, title: "theirs", branch: "arbor/theirs" },
    });
    await db.modelSettings.create({ data: { projectId: project.id, modelName: "project-model" } });
    await savePersonSettings(db, user.id, {
      model: { name: "person-model" },
      limits: { maxIterations: 2, maxDepth: 4 }, // 4 is over the server's 3: ignored
    });
    const deps = { db, box: createSecretBox(randomBytes(32)), environment: {} };

    const mine = await resolveProjectSettings(deps, project, {}, user.id);
    expect(mine.resolved.modelName).toBe("person-model");
    expect(mine.resolved.sources.modelName).toBe("user");
    const theirs = await resolveProjectSettings(deps, project, {}, other.id);
    expect(theirs.resolved.modelName).toBe("project-model");
    // A run's own pick still beats the person's.
    expect(
      (await resolveProjectSettings(deps, project, { modelName: "run-model" }, user.id)).resolved.modelName,
    ).toBe("run-model");

    const bounds = await sessionRunBounds(db, session.id, server);
    expect(bounds.limits.maxIterations).toBe(2);
    expect(bounds.limits.maxDepth).toBe(3);
    expect((await sessionRunBounds(db, otherSession.id, server)).limits.maxIterations).toBe(10);
  });
});
