import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { projectRouter } from "@/server/api/routers/project";
import { SAMPLE_PROJECTS } from "@/server/domain/vocabulary/sample-projects";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";

/** Issue #17.3: the one-click sample project, a real bare repository of `samples/node-sum`, tenant-checked. */
const git = promisify(execFile);
let db: PrismaClient;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterEach(async () => cleanup());

describe("project.createSample", () => {
  it("makes a project whose repository holds the sample's files in one commit, with its suggested task", async () => {
    const owner = await seedSession(db, "owner");
    const caller = projectRouter.createCaller({ db, user: owner.user });
    const made = await caller.createSample({ teamId: owner.team.id, sample: "node-sum" });
    expect(made).toMatchObject({ name: "Sample: node-sum", task: SAMPLE_PROJECTS["node-sum"].task });
    const stored = await db.project.findUniqueOrThrow({ where: { id: made.id } });
    expect(stored.teamId).toBe(owner.team.id);
    const files = await git("git", ["-C", stored.repoPath, "ls-tree", "-r", "--name-only", "main"]);
    expect(files.stdout.split("\n").filter(Boolean).sort()).toEqual([
      "README.md",
      "package.json",
      "sum.js",
      "test/sum.test.js",
    ]);
    const sum = await git("git", ["-C", stored.repoPath, "show", "main:sum.js"]);
    expect(sum.stdout).toContain("a - b");
    const log = await git("git", ["-C", stored.repoPath, "rev-list", "--count", "main"]);
    expect(log.stdout.trim()).toBe("1");
  });

  it("refuses a viewer and a team the caller is not in, and an unknown sample", async () => {
    const owner = await seedSession(db, "owner");
    const outsider = await seedSession(db, "outsider");
    const viewer = await db.user.create({ data: { email: "viewer@example.com", name: "Viewer" } });
    await db.membership.create({ data: { userId: viewer.id, teamId: owner.team.id, role: "viewer" } });
    const as = (user: { id: string; name: string; email: string }) =>
      projectRouter.createCaller({ db, user });
    await expect(as(viewer).createSample({ teamId: owner.team.id, sample: "node-sum" })).rejects.toThrow();
    await expect(
      as(outsider.user).createSample({ teamId: owner.team.id, sample: "node-sum" }),
    ).rejects.toThrow(/not found/i);
    await expect(
      as(owner.user).createSample({ teamId: owner.team.id, sample: "../etc" as "node-sum" }),
    ).rejects.toThrow();
    expect(await db.project.count({ where: { teamId: owner.team.id } })).toBe(1);
  });
});
