import { describe, expect, it, vi } from "vitest";
import { recordsFromEvents } from "@/server/governance/ledger/export";
import { fileHash } from "@/server/workspace-editor/file-content";
import { workspaceRouterWorld } from "@/testing/harness/workspace-router-world";

/**
 * Creating, renaming and deleting files from the Files card, against a real sandbox (Docker) and a
 * real event log (SQLite): each is a call of the registry's tools through the dispatch.
 */

const app = vi.hoisted(() => ({ current: {} as Record<string, unknown> }));
vi.mock("@/server/app-context", () => ({ appContext: () => app.current }));

const world = workspaceRouterWorld(app, { repoName: "Files", seed: "files", branch: "arbor/files-test" });
const { owner, sessionId, exists, eventsOf } = world;

describe("creating a file", () => {
  it("creates an empty file (folders included), logged as the person's new file; an existing name is a conflict", async () => {
    const created = await owner().create({ sessionId: sessionId(), path: "notes/todo.md" });
    expect(created).toMatchObject({ status: "saved", hash: fileHash("") });
    expect((await world.sandbox.exec("wc -c < notes/todo.md")).stdout.trim()).toBe("0");
    expect(await eventsOf("file-edited")).toEqual([
      expect.objectContaining({
        path: "notes/todo.md",
        baseHash: null,
        by: { userId: world.seeded.user.id, name: world.seeded.user.name },
      }),
    ]);
    expect(await owner().create({ sessionId: sessionId(), path: "README.md" })).toEqual({
      status: "conflict",
      message: "README.md already exists.",
      currentHash: expect.stringMatching(/^sha256:/),
    });
  }, 60_000);

  it("refuses bad names and paths outside /workspace, and asks before a protected path", async () => {
    for (const bad of ["src/", "a//b.txt", "../escape.txt", "/etc/evil", " x.txt"])
      await expect(owner().create({ sessionId: sessionId(), path: bad })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    await world.sandbox.exec("ln -s /tmp outside");
    await expect(owner().create({ sessionId: sessionId(), path: "outside/evil.txt" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("outside"),
    });
    const asked = await owner().create({ sessionId: sessionId(), path: ".github/workflows/ci.yml" });
    expect(asked).toMatchObject({ status: "confirm", reason: expect.stringContaining("protected") });
    expect(await exists(".github/workflows/ci.yml")).toBe(false);
    if (asked.status !== "confirm") throw new Error("expected a question");
    const confirmed = await owner().create({
      sessionId: sessionId(),
      path: ".github/workflows/ci.yml",
      confirmBinding: asked.binding,
    });
    expect(confirmed).toMatchObject({ status: "saved" });
    expect(await exists(".github/workflows/ci.yml")).toBe(true);
  }, 60_000);
});

describe("renaming a file", () => {
  it("writes the text at the new path and deletes the old one, logged and traced as the person's", async () => {
    await world.sandbox.exec("printf 'one\\ntwo\\n' > a.txt");
    const opened = await owner().read({ sessionId: sessionId(), path: "a.txt" });
    const outcome = await owner().rename({
      sessionId: sessionId(),
      from: "a.txt",
      to: "docs/b.txt",
      baseHash: opened.hash,
    });
    expect(outcome).toMatchObject({ status: "done" });
    expect(await exists("a.txt")).toBe(false);
    expect((await world.sandbox.exec("cat docs/b.txt")).stdout).toBe("one\ntwo\n");
    expect(await eventsOf("file-renamed")).toEqual([
      expect.objectContaining({
        from: "a.txt",
        to: "docs/b.txt",
        hash: opened.hash,
        bytes: 8,
        by: { userId: world.seeded.user.id, name: world.seeded.user.name },
        confirmed: null,
      }),
    ]);
    const records = recordsFromEvents(await world.store.read(sessionId()));
    expect(records.flatMap((record) => record.files.map((file) => file.path))).toContain("docs/b.txt");
    expect(JSON.stringify(records)).toContain('"contributor":{"type":"human"}');
    const [changed] = await eventsOf("workspace-changed");
    expect(changed).toMatchObject({
      files: expect.arrayContaining([expect.objectContaining({ path: "docs/b.txt" })]),
    });
  }, 60_000);

  it("refuses to overwrite, to rename a changed or binary file, and asks before a protected path", async () => {
    await world.sandbox.exec("echo a > a.txt && echo b > b.txt && printf 'x\\0y' > blob.bin");
    expect(await owner().rename({ sessionId: sessionId(), from: "a.txt", to: "b.txt" })).toEqual({
      status: "conflict",
      message: "b.txt already exists; nothing was renamed.",
    });
    expect(
      await owner().rename({
        sessionId: sessionId(),
        from: "a.txt",
        to: "c.txt",
        baseHash: fileHash("old\n"),
      }),
    ).toMatchObject({ status: "conflict", message: expect.stringContaining("changed in the sandbox") });
    await expect(
      owner().rename({ sessionId: sessionId(), from: "blob.bin", to: "blob2.bin" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("binary"),
    });
    await expect(
      owner().rename({ sessionId: sessionId(), from: "missing.txt", to: "m.txt" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      owner().rename({ sessionId: sessionId(), from: "a.txt", to: "../a.txt" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const asked = await owner().rename({ sessionId: sessionId(), from: "a.txt", to: "package.json" });
    expect(asked).toMatchObject({
      status: "confirm",
      reason: expect.stringContaining("package.json is protected"),
    });
    expect(await exists("a.txt")).toBe(true);
    if (asked.status !== "confirm") throw new Error("expected a question");
    expect(
      await owner().rename({
        sessionId: sessionId(),
        from: "a.txt",
        to: "package.json",
        confirmBinding: asked.binding,
      }),
    ).toMatchObject({ status: "done" });
    expect([await exists("a.txt"), await exists("package.json")]).toEqual([false, true]);
    expect(await eventsOf("file-renamed")).toEqual([
      expect.objectContaining({ to: "package.json", confirmed: expect.stringContaining("protected") }),
    ]);
  }, 60_000);
});

describe("deleting a file", () => {
  it("asks first, then deletes exactly that file as it was when asked, logged as the person's", async () => {
    await world.sandbox.exec("echo bye > old.txt");
    const asked = await owner().delete({ sessionId: sessionId(), path: "old.txt" });
    expect(asked).toMatchObject({
      status: "confirm",
      reason: expect.stringContaining("dangerous"),
      currentHash: fileHash("bye\n"),
    });
    expect(await exists("old.txt")).toBe(true);
    if (asked.status !== "confirm") throw new Error("expected a question");
    // Another file's binding does not delete this one.
    await world.sandbox.exec("echo keep > keep.txt");
    expect(
      await owner().delete({
        sessionId: sessionId(),
        path: "keep.txt",
        confirmBinding: asked.binding,
        baseHash: asked.currentHash,
      }),
    ).toMatchObject({ status: "confirm" });
    expect(await exists("keep.txt")).toBe(true);
    const done = await owner().delete({
      sessionId: sessionId(),
      path: "old.txt",
      confirmBinding: asked.binding,
      baseHash: asked.currentHash,
    });
    expect(done).toMatchObject({ status: "done" });
    expect(await exists("old.txt")).toBe(false);
    // The replay's files follow the delete: the session's diff since its start is recorded with it,
    // and old.txt (made after the start) is no longer in it.
    const changed = (await eventsOf("workspace-changed")).at(-1);
    expect(changed).toMatchObject({
      cycleId: (done as { editId: string }).editId,
      files: [expect.objectContaining({ path: "keep.txt" })],
    });
    expect(await eventsOf("file-deleted")).toEqual([
      expect.objectContaining({
        path: "old.txt",
        hash: fileHash("bye\n"),
        by: { userId: world.seeded.user.id, name: world.seeded.user.name },
      }),
    ]);
  }, 60_000);

  it("deletes a symbolic link (one to outside /workspace too): the link, never its target (issue #16.10)", async () => {
    await world.sandbox.exec(
      "echo precious > /tmp/target.txt && ln -s /tmp/target.txt escape && ln -s README.md inner-link",
    );
    for (const link of ["escape", "inner-link"]) {
      const asked = await owner().delete({ sessionId: sessionId(), path: link });
      if (asked.status !== "confirm") throw new Error(`expected a question for ${link}`);
      const done = await owner().delete({
        sessionId: sessionId(),
        path: link,
        confirmBinding: asked.binding,
        baseHash: asked.currentHash,
      });
      expect(done).toMatchObject({ status: "done" });
      expect((await world.sandbox.exec(`test -L ${link} || echo gone`)).stdout.trim()).toBe("gone");
    }
    expect((await world.sandbox.exec("cat /tmp/target.txt")).stdout).toBe("precious\n");
    expect((await world.sandbox.exec("head -1 README.md")).stdout).toMatch(/^# /);
  }, 60_000);

  it("deletes nothing when the file changed after the question; refuses folders and missing files", async () => {
    await world.sandbox.exec("echo v1 > f.txt && mkdir -p dir");
    const asked = await owner().delete({ sessionId: sessionId(), path: "f.txt" });
    if (asked.status !== "confirm") throw new Error("expected a question");
    await world.sandbox.exec("echo v2 > f.txt");
    expect(
      await owner().delete({
        sessionId: sessionId(),
        path: "f.txt",
        confirmBinding: asked.binding,
        baseHash: asked.currentHash,
      }),
    ).toMatchObject({ status: "conflict", message: expect.stringContaining("nothing was deleted") });
    expect(await exists("f.txt")).toBe(true);
    await expect(owner().delete({ sessionId: sessionId(), path: "dir" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "dir is a folder; the Files card deletes files only.",
    });
    await expect(owner().delete({ sessionId: sessionId(), path: "nope.txt" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await eventsOf("file-deleted")).toEqual([]);
  }, 60_000);
});

describe("roles", () => {
  it("refuses a viewer every change, and changes nothing", async () => {
    const viewer = await world.viewer();
    const forbidden = { code: "FORBIDDEN" };
    await expect(viewer.create({ sessionId: sessionId(), path: "v.txt" })).rejects.toMatchObject(forbidden);
    await expect(
      viewer.rename({ sessionId: sessionId(), from: "README.md", to: "R.md" }),
    ).rejects.toMatchObject(forbidden);
    await expect(viewer.delete({ sessionId: sessionId(), path: "README.md" })).rejects.toMatchObject(
      forbidden,
    );
    expect([await exists("v.txt"), await exists("R.md"), await exists("README.md")]).toEqual([
      false,
      false,
      true,
    ]);
    expect(await world.store.read(sessionId())).toEqual([]);
  }, 60_000);
});
