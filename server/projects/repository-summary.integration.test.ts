import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyRepository, repositorySummary } from "./git-repository";

/** The project page's Repository card, read from a real bare repository with git. */
describe("repositorySummary", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "arbor-summary-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("lists the default branch's files, its commits and every branch, newest first", async () => {
    const repo = path.join(dir, "p.git");
    await createEmptyRepository(repo, "Summary");
    // A second branch, as a saved session leaves one.
    const head = execFileSync("git", ["-C", repo, "rev-parse", "HEAD"]).toString().trim();
    execFileSync("git", ["-C", repo, "update-ref", "refs/heads/arbor/session-1", head]);

    const summary = await repositorySummary(repo);
    expect(summary.defaultBranch).toBe("main");
    expect(summary.files).toEqual(["README.md"]);
    expect(summary.commits).toHaveLength(1);
    expect(summary.commits[0]).toMatchObject({ hash: head, subject: "Initial commit", author: "Arbor" });
    expect(summary.branches.map((branch) => branch.name).sort()).toEqual(["arbor/session-1", "main"]);
  });

  it("says nothing is there for a repository without commits, rather than failing", async () => {
    const repo = path.join(dir, "empty.git");
    execFileSync("git", ["init", "-q", "--bare", "--initial-branch=main", repo]);
    const summary = await repositorySummary(repo);
    expect(summary).toMatchObject({ defaultBranch: "main", files: [], commits: [], branches: [] });
  });
});
