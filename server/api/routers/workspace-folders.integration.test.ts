import { describe, expect, it, vi } from "vitest";
import { recordsFromEvents } from "@/server/governance/ledger/export";
import { workspaceRouterWorld } from "@/testing/harness/workspace-router-world";

/**
 * Renaming and deleting folders from the Files card, against a real sandbox (Docker) and a real event
 * log (SQLite): file by file through the registry's tools, then one `rmdir` through shell.exec.
 */

const app = vi.hoisted(() => ({ current: {} as Record<string, unknown> }));
vi.mock("@/server/app-context", () => ({ appContext: () => app.current }));

const world = workspaceRouterWorld(app, {
  repoName: "Folders",
  seed: "folders",
  branch: "arbor/folders-test",
});
const { owner, sessionId, exists, eventsOf } = world;
const sh = (command: string) => world.sandbox.exec(command);

describe("deleting a folder", () => {
  it("asks first with how many files go, then deletes the folder and everything in it, logged and followed by the replay", async () => {
    await sh("mkdir -p docs/guide/empty && printf 'a\\n' > docs/a.md && printf 'b\\n' > docs/guide/b.md");
    const asked = await owner().deleteFolder({ sessionId: sessionId(), path: "docs" });
    expect(asked).toMatchObject({
      status: "confirm",
      files: 2,
      reason: "2 files and 3 folders will be deleted from the workspace.",
    });
    expect(await exists("docs/a.md")).toBe(true);
    if (asked.status !== "confirm") throw new Error("expected a question");

    const done = await owner().deleteFolder({
      sessionId: sessionId(),
      path: "docs",
      confirmBinding: asked.binding,
      baseHash: asked.currentHash,
    });
    expect(done).toMatchObject({ status: "done", files: 2 });
    expect(await exists("docs")).toBe(false);
    expect(await eventsOf("folder-deleted")).toEqual([
      expect.objectContaining({
        path: "docs",
        files: ["a.md", "guide/b.md"],
        hash: asked.currentHash,
        by: { userId: world.seeded.user.id, name: world.seeded.user.name },
        confirmed: asked.reason,
      }),
    ]);
    // The replay's files follow it: the session's diff is recorded with the delete, without docs/.
    const changed = (await eventsOf("workspace-changed")).at(-1) as { cycleId: string; files: unknown[] };
    expect(changed?.cycleId).toBe((done as { editId: string }).editId);
    expect(JSON.stringify(changed?.files ?? [])).not.toContain("docs/");
  }, 90_000);

  it("deletes nothing when the folder changed after the question, or with another folder's answer", async () => {
    await sh("mkdir -p one two && echo 1 > one/x.txt && echo 2 > two/y.txt");
    const asked = await owner().deleteFolder({ sessionId: sessionId(), path: "one" });
    if (asked.status !== "confirm") throw new Error("expected a question");
    // Another folder's answer is another question.
    const other = await owner().deleteFolder({ sessionId: sessionId(), path: "two" });
    if (other.status !== "confirm") throw new Error("expected a question");
    expect(
      await owner().deleteFolder({
        sessionId: sessionId(),
        path: "two",
        confirmBinding: asked.binding,
        baseHash: other.currentHash,
      }),
    ).toMatchObject({ status: "confirm" });
    await sh("echo late > one/late.txt");
    expect(
      await owner().deleteFolder({
        sessionId: sessionId(),
        path: "one",
        confirmBinding: asked.binding,
        baseHash: asked.currentHash,
      }),
    ).toMatchObject({ status: "conflict", message: expect.stringContaining("nothing was deleted") });
    expect([await exists("one/x.txt"), await exists("one/late.txt"), await exists("two/y.txt")]).toEqual([
      true,
      true,
      true,
    ]);
    expect(await eventsOf("folder-deleted")).toEqual([]);
  }, 90_000);

  it("says which files are protected, and refuses the root, files, links, escapes and folders it cannot walk", async () => {
    await sh("mkdir -p ci/.github/workflows app/node_modules/x && echo x > ci/.github/workflows/ci.yml");
    await sh(
      "echo f > plain.txt && mkdir -p real && echo r > real/r.txt && ln -s real linked && ln -s /etc outside",
    );
    const asked = await owner().deleteFolder({ sessionId: sessionId(), path: "ci" });
    expect(asked).toMatchObject({
      status: "confirm",
      reason: expect.stringContaining("Protected: ci/.github/workflows/ci.yml."),
    });
    const refused: [string, string][] = [
      [".", "The workspace itself cannot be renamed or deleted."],
      ["plain.txt", "plain.txt is a file or a link, not a folder; use the file's own Rename and Delete."],
      ["linked", "linked is a file or a link, not a folder; use the file's own Rename and Delete."],
      ["app", "app holds app/node_modules, which the Files card does not open; use the terminal."],
    ];
    for (const [path, message] of refused)
      await expect(owner().deleteFolder({ sessionId: sessionId(), path })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message,
      });
    await expect(owner().deleteFolder({ sessionId: sessionId(), path: "outside" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(owner().deleteFolder({ sessionId: sessionId(), path: "../tmp" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(owner().deleteFolder({ sessionId: sessionId(), path: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await exists("real/r.txt")).toBe(true);
  }, 90_000);
});

describe("renaming a folder", () => {
  it("moves every file under the new name, removes the old folder, and records the lines as the person's", async () => {
    await sh("mkdir -p src/lib && printf 'one\\n' > src/a.ts && printf 'two\\nthree\\n' > src/lib/b.ts");
    const done = await owner().renameFolder({ sessionId: sessionId(), from: "src", to: "code/src" });
    expect(done).toMatchObject({ status: "done", files: 2 });
    expect((await sh("cat code/src/a.ts code/src/lib/b.ts")).stdout).toBe("one\ntwo\nthree\n");
    expect(await exists("src")).toBe(false);
    expect(await eventsOf("folder-renamed")).toEqual([
      expect.objectContaining({
        from: "src",
        to: "code/src",
        files: ["a.ts", "lib/b.ts"],
        confirmed: null,
        by: { userId: world.seeded.user.id, name: world.seeded.user.name },
      }),
    ]);
    const records = recordsFromEvents(await world.store.read(sessionId()));
    const paths = records.flatMap((record) => record.files.map((file) => file.path)).sort();
    expect(paths).toEqual(["code/src/a.ts", "code/src/lib/b.ts"]);
    const changed = (await eventsOf("workspace-changed")).at(-1) as { cycleId: string };
    expect(changed?.cycleId).toBe((done as { editId: string }).editId);
  }, 90_000);

  it("asks before a protected path, refuses an existing target, a move into itself, binary files and bad names", async () => {
    await sh("mkdir -p conf other bin && echo '{}' > conf/settings.json && echo o > other/o.txt");
    await sh("head -c 64 /dev/urandom > bin/blob && printf '\\0' >> bin/blob");
    const asked = await owner().renameFolder({
      sessionId: sessionId(),
      from: "conf",
      to: ".github/workflows",
    });
    expect(asked).toMatchObject({
      status: "confirm",
      reason: expect.stringContaining("protected"),
      files: 1,
    });
    expect(await exists(".github")).toBe(false);
    if (asked.status !== "confirm") throw new Error("expected a question");
    expect(
      await owner().renameFolder({
        sessionId: sessionId(),
        from: "conf",
        to: ".github/workflows",
        confirmBinding: asked.binding,
        baseHash: asked.currentHash,
      }),
    ).toMatchObject({ status: "done" });
    expect(await exists(".github/workflows/settings.json")).toBe(true);
    expect(await eventsOf("folder-renamed")).toEqual([
      expect.objectContaining({ to: ".github/workflows", confirmed: expect.stringContaining("protected") }),
    ]);

    expect(await owner().renameFolder({ sessionId: sessionId(), from: "other", to: "bin" })).toEqual({
      status: "conflict",
      message: "bin already exists; nothing was renamed.",
    });
    await expect(
      owner().renameFolder({ sessionId: sessionId(), from: "other", to: "other/inner" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "other cannot be moved into itself (other/inner).",
    });
    await expect(
      owner().renameFolder({ sessionId: sessionId(), from: "bin", to: "binaries" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("Use the terminal (mv)"),
    });
    for (const bad of ["x/", "a//b", "../up"])
      await expect(
        owner().renameFolder({ sessionId: sessionId(), from: "other", to: bad }),
      ).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    expect([await exists("other/o.txt"), await exists("bin/blob")]).toEqual([true, true]);
  }, 90_000);
});

describe("roles", () => {
  it("refuses a viewer folder changes, and changes nothing", async () => {
    await sh("mkdir -p kept && echo k > kept/k.txt");
    const viewer = await world.viewer();
    await expect(viewer.deleteFolder({ sessionId: sessionId(), path: "kept" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      viewer.renameFolder({ sessionId: sessionId(), from: "kept", to: "moved" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect([await exists("kept/k.txt"), await exists("moved")]).toEqual([true, false]);
    expect(await world.store.read(sessionId())).toEqual([]);
  }, 60_000);
});
