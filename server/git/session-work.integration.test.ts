import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshotWorkingTree } from "@/server/governance/ledger/collect";
import { createEmptyRepository, deleteBranch, mergeBranch } from "@/server/projects/git-repository";
import { DockerSandboxProvider } from "@/server/sandbox";
import type { Sandbox } from "@/server/sandbox/types";
import { silentLogger } from "@/testing/harness/fakes";
import { saveSessionWork, workspaceDiff } from "./session-work";

/** Saving a session's work into the project's bare repository, merging it, discarding it: real Docker, real git. */
let dir: string;
let repoPath: string;
const provider = new DockerSandboxProvider({ logger: silentLogger, instance: `work-${process.pid}` });
const boxes: Sandbox[] = [];
const show = (ref: string, file: string) =>
  execFileSync("git", ["-C", repoPath, "show", `${ref}:${file}`], { encoding: "utf8" });

async function session(name: string): Promise<Sandbox> {
  const box = await provider.create({
    sessionId: `work-${name}-${process.pid}`,
    repoPath,
    branch: `arbor/${name}`,
  });
  boxes.push(box);
  return box;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "arbor-work-"));
  repoPath = path.join(dir, "project.git");
  await createEmptyRepository(repoPath, "Work");
});

afterAll(async () => {
  await Promise.all(boxes.map((box) => box.dispose()));
  await rm(dir, { recursive: true, force: true });
});

describe("session work", () => {
  it("diffs the workspace against its base (commits, edits, new files) without touching its index", async () => {
    const box = await session("diff");
    await box.exec("printf 'one\\n' > committed.txt && git add committed.txt && git commit -qm one");
    await box.exec("printf '# Changed\\n' > README.md && printf 'new\\n' > untracked.txt");
    const statusBefore = (await box.exec("git status --porcelain")).stdout;
    const result = await workspaceDiff(box);
    expect(result.base).toBe(
      execFileSync("git", ["-C", repoPath, "rev-parse", "main"], { encoding: "utf8" }).trim(),
    );
    expect(result.truncated).toBe(false);
    expect(result.diff).toContain("+++ b/committed.txt");
    expect(result.diff).toContain("+# Changed");
    expect(result.diff).toContain("+++ b/untracked.txt");
    // The person's and the agent's index is as it was: nothing staged, the new file still untracked.
    expect((await box.exec("git status --porcelain")).stdout).toBe(statusBefore);
    expect((await box.exec("git diff --cached --name-only")).stdout).toBe("");
  });

  it("saves the workspace as the session's branch and merges it into main", async () => {
    const box = await session("a");
    await box.exec("printf 'hello\\n' > hello.txt");
    const saved = await saveSessionWork(
      box,
      { repoPath, branch: "arbor/a" },
      { message: "Add hello", allowSecrets: false },
    );
    expect(saved).toMatchObject({ status: "saved", files: ["hello.txt"], secretsOverridden: false });
    expect(show("arbor/a", "hello.txt")).toBe("hello\n");
    await mergeBranch(repoPath, "arbor/a", "main", "Merge arbor/a");
    expect(show("main", "hello.txt")).toBe("hello\n");
    expect(
      execFileSync("git", ["-C", repoPath, "log", "-1", "--format=%s", "main"], { encoding: "utf8" }).trim(),
    ).toBe("Merge arbor/a");
  });

  it("blocks a save with a secret until the person overrides, and unstages meanwhile", async () => {
    const box = await session("b");
    await box.exec("printf 'API_KEY=x\\n' > .env && printf 'ok\\n' > notes.txt");
    const blocked = await saveSessionWork(
      box,
      { repoPath, branch: "arbor/b" },
      { message: "", allowSecrets: false },
    );
    expect(blocked.status).toBe("blocked");
    expect((await box.exec("git diff --cached --name-only")).stdout).toBe("");
    const saved = await saveSessionWork(
      box,
      { repoPath, branch: "arbor/b" },
      { message: "", allowSecrets: true },
    );
    expect(saved).toMatchObject({ status: "saved", secretsOverridden: true });
    expect(show("arbor/b", "notes.txt")).toBe("ok\n");
  });

  it("refuses a conflicting merge, names the file and changes nothing", async () => {
    const one = await session("c");
    const two = await session("d");
    await one.exec("printf 'one\\n' > README.md");
    await two.exec("printf 'two\\n' > README.md");
    await saveSessionWork(one, { repoPath, branch: "arbor/c" }, { message: "", allowSecrets: false });
    await saveSessionWork(two, { repoPath, branch: "arbor/d" }, { message: "", allowSecrets: false });
    await mergeBranch(repoPath, "arbor/c", "main", "Merge c");
    const before = execFileSync("git", ["-C", repoPath, "rev-parse", "main"], { encoding: "utf8" });
    await expect(mergeBranch(repoPath, "arbor/d", "main", "Merge d")).rejects.toThrow(
      "conflicts with main in README.md",
    );
    expect(execFileSync("git", ["-C", repoPath, "rev-parse", "main"], { encoding: "utf8" })).toBe(before);
    await deleteBranch(repoPath, "arbor/d");
    expect(() =>
      execFileSync("git", ["-C", repoPath, "rev-parse", "--verify", "-q", "arbor/d"], { stdio: "pipe" }),
    ).toThrow();
  });

  it("refuses to run git on a repository whose config names a filter driver, and runs nothing", async () => {
    const box = await session("e");
    // What code a person let run could plant: `.git/` is protected from everything else.
    await box.exec(
      "git config filter.evil.clean 'touch /tmp/planted-filter; cat' && printf '* filter=evil\\n' > .gitattributes && printf 'x\\n' > x.txt",
    );
    await expect(
      saveSessionWork(box, { repoPath, branch: "arbor/e" }, { message: "", allowSecrets: false }),
    ).rejects.toThrow(/names programs for git to run \(filter\.evil\.clean\)/);
    expect(await snapshotWorkingTree((command) => box.exec(command))).toBeNull();
    expect((await box.exec("ls /tmp")).stdout).not.toContain("planted-filter");
    // Proof the plant is live: git's own add runs it.
    await box.exec("git add x.txt");
    expect((await box.exec("ls /tmp")).stdout).toContain("planted-filter");
  });
});
