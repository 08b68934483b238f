import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { appRouter } from "@/server/api/root";
import { env } from "@/server/env";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { importRepository, repoPathFor } from "@/server/projects/git-repository";
import {
  type ImportPolicy,
  LOCAL_SOURCE_REFUSED,
  resolveImportSource,
} from "@/server/projects/import-source";
import { createTestDb, seedSession } from "@/testing/db/test-db";

const scratch = mkdtempSync(path.join(tmpdir(), "arbor-import-policy-"));
const root = path.join(scratch, "allowed");
const dataDir = path.join(scratch, "data");
const outside = path.join(scratch, "outside");

function makeRepository(dir: string, marker: string): string {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
  git("init", "-q", "--initial-branch=main");
  writeFileSync(path.join(dir, "marker.txt"), `${marker}\n`);
  git("add", "marker.txt");
  git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", marker);
  return dir;
}

function headMessage(bareRepo: string): string {
  return execFileSync("git", ["-C", bareRepo, "log", "-1", "--format=%s"], { encoding: "utf8" }).trim();
}

const refused = { message: LOCAL_SOURCE_REFUSED, code: "BAD_REQUEST" };

beforeAll(() => {
  makeRepository(path.join(root, "fixture"), "allowed-fixture");
  mkdirSync(path.join(root, "plain-dir"), { recursive: true });
  // Another team's repository, where Arbor keeps them.
  makeRepository(path.join(dataDir, "repos", "team-a-project.git"), "team-a-secret");
  makeRepository(outside, "outside-secret");
  symlinkSync(path.join(dataDir, "repos", "team-a-project.git"), path.join(root, "link-to-data"));
  symlinkSync(outside, path.join(root, "link-outside"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("local imports are off by default", () => {
  const policy: ImportPolicy = { localRoot: undefined, dataDir };
  it.each([
    ["another team's repository by path", () => path.join(dataDir, "repos", "team-a-project.git")],
    ["the same by file:// URL", () => `file://${path.join(dataDir, "repos", "team-a-project.git")}`],
    ["an existing repository anywhere", () => `file://${outside}`],
    ["a path that does not exist", () => "/nonexistent/repo.git"],
    ["a directory that is not a repository", () => "/etc"],
    ["a file:// URL with a host", () => "file://otherhost/etc"],
  ])("refuses %s with the one message", async (_name, source) => {
    await expect(resolveImportSource(source(), policy)).rejects.toMatchObject(refused);
  });
});

describe("with an administrator's root for local imports", () => {
  const policy: ImportPolicy = { localRoot: root, dataDir };

  it("imports a repository under the root (resolved, cloned through the pack protocol)", async () => {
    const source = await resolveImportSource(`file://${path.join(root, "fixture")}`, policy);
    expect(source).toEqual({ kind: "local", path: path.join(root, "fixture") });
    const target = path.join(scratch, "clones", "fixture.git");
    await importRepository(target, source);
    expect(headMessage(target)).toBe("allowed-fixture");
  });

  it.each([
    ["a missing path under the root", () => path.join(root, "missing")],
    ["a directory that is not a repository", () => path.join(root, "plain-dir")],
    ["a repository outside the root", () => outside],
    ["a .. escape from the root", () => `${root}/../outside`],
    ["a symlink under the root into the data directory", () => path.join(root, "link-to-data")],
    ["a symlink under the root to outside it", () => path.join(root, "link-outside")],
  ])("refuses %s with the same message, leaving nothing behind", async (_name, source) => {
    const target = path.join(scratch, "clones", "refused.git");
    const attempt = async () => importRepository(target, await resolveImportSource(source(), policy));
    await expect(attempt()).rejects.toMatchObject(refused);
    expect(existsSync(target)).toBe(false);
  });

  it("never allows the data directory, even when the root contains it", async () => {
    const wide: ImportPolicy = { localRoot: scratch, dataDir };
    await expect(
      resolveImportSource(path.join(dataDir, "repos", "team-a-project.git"), wide),
    ).rejects.toMatchObject(refused);
  });
});

describe("network sources stay allowed, loopback included", () => {
  let daemon: ChildProcess;
  let port: number;
  beforeAll(async () => {
    port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const served = path.join(scratch, "served");
    makeRepository(path.join(served, "team.git"), "served-over-git");
    daemon = spawn("git", [
      "daemon",
      "--reuseaddr",
      "--export-all",
      `--base-path=${served}`,
      "--listen=127.0.0.1",
      `--port=${port}`,
      served,
    ]);
    for (let tries = 0; tries < 50; tries++) {
      try {
        execFileSync("git", ["ls-remote", `git://127.0.0.1:${port}/team.git`], { stdio: "pipe" });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error("git daemon did not start");
  });
  afterAll(() => daemon?.kill());

  it("clones a git:// URL on 127.0.0.1 with local imports off", async () => {
    const source = await resolveImportSource(`git://127.0.0.1:${port}/team.git`, {
      localRoot: undefined,
      dataDir,
    });
    const target = path.join(scratch, "clones", "network.git");
    await importRepository(target, source);
    expect(headMessage(target)).toBe("served-over-git");
  });
});

describe("project.create: team B cannot import team A's repository", () => {
  let db: PrismaClient;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ db, cleanup } = await createTestDb()));
  afterAll(async () => cleanup());

  it("refuses the path and the file:// URL of another project's bare repository, creating nothing", async () => {
    const a = await seedSession(db, "a");
    const b = await seedSession(db, "b");
    const caller = appRouter.createCaller({ db, user: b.user });
    // Team A's repository exists where Arbor keeps it; its id is in every URL team A shares.
    const aRepo = repoPathFor(env.dataDir, a.project.id);
    makeRepository(aRepo, "team-a-commit");
    onTestFinished(() => rmSync(aRepo, { recursive: true, force: true }));
    const reposDir = path.join(env.dataDir, "repos");
    const before = existsSync(reposDir) ? readdirSync(reposDir).length : 0;
    for (const sourceUrl of [
      repoPathFor(env.dataDir, a.project.id),
      `file://${repoPathFor(env.dataDir, a.project.id)}`,
    ]) {
      await expect(
        caller.project.create({ teamId: b.team.id, name: "Stolen", sourceUrl }),
      ).rejects.toMatchObject(refused);
    }
    expect(existsSync(reposDir) ? readdirSync(reposDir).length : 0).toBe(before);
    expect(await db.project.count({ where: { name: "Stolen" } })).toBe(0);
  });
});
