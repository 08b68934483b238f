import { describe, expect, it, vi } from "vitest";
import { workspaceRouter } from "@/server/api/routers/workspace";
import { arborMetadataOf } from "@/server/domain/events/trace-schema";
import { recordsFromEvents, toJsonl } from "@/server/governance/ledger/export";
import { fileHash } from "@/server/workspace-editor/file-content";
import { seedSession } from "@/testing/db/test-db";
import { workspaceRouterWorld } from "@/testing/harness/workspace-router-world";
import { validateJsonSchema } from "@/testing/ledger/agent-trace-schema";

/**
 * The Files card's router against a real sandbox (Docker) and a real event log (SQLite): every call
 * goes through the tool dispatch, so the scope guard, protected paths and the trace ledger are real.
 */

const app = vi.hoisted(() => ({ current: {} as Record<string, unknown> }));
vi.mock("@/server/app-context", () => ({ appContext: () => app.current }));

const world = workspaceRouterWorld(app, { repoName: "Edited", seed: "ed", branch: "arbor/editor-test" });
const { owner, sessionId } = world;

describe("workspace router", () => {
  it("lists folders lazily without .git, reads a file with its hash, saves it as a human contribution", async () => {
    const editor = owner();
    await world.sandbox.exec("mkdir -p src && printf 'export const a = 1;\\n' > src/a.ts");
    const root = await editor.list({ sessionId: sessionId() });
    expect(root.entries.map((entry) => `${entry.kind} ${entry.path}`)).toEqual(["dir src", "file README.md"]);
    const src = await editor.list({ sessionId: sessionId(), path: "src" });
    expect(src.entries).toEqual([{ path: "src/a.ts", name: "a.ts", kind: "file" }]);

    const opened = await editor.read({ sessionId: sessionId(), path: "src/a.ts" });
    expect(opened.text).toBe("export const a = 1;\n");
    expect(opened.hash).toBe(fileHash("export const a = 1;\n"));

    const content = "export const a = 1;\nexport const b = 2;\n";
    const saved = await editor.save({
      sessionId: sessionId(),
      path: "src/a.ts",
      content,
      baseHash: opened.hash,
    });
    expect(saved).toMatchObject({ status: "saved", hash: fileHash(content) });
    expect((await world.sandbox.exec("cat src/a.ts")).stdout).toBe(content);

    const events = await world.store.read(sessionId());
    const edited = events.find((event) => event.body.type === "file-edited")?.body;
    expect(edited).toMatchObject({
      path: "src/a.ts",
      by: { userId: world.seeded.user.id, name: world.seeded.user.name },
      baseHash: opened.hash,
      hash: fileHash(content),
      confirmed: null,
    });
    const records = recordsFromEvents(events);
    expect(records).toHaveLength(1);
    const record = records[0];
    if (!record) throw new Error("no record");
    expect(validateJsonSchema(record)).toEqual([]);
    expect(record.files).toEqual([
      {
        path: "src/a.ts",
        conversations: [
          {
            contributor: { type: "human" },
            ranges: [expect.objectContaining({ start_line: 2, end_line: 2 })],
          },
        ],
      },
    ]);
    expect(arborMetadataOf(record)).toMatchObject({
      author: world.seeded.user.name,
      approver: world.seeded.user.name,
      run_id: null,
    });
    expect(toJsonl(records)).toContain('"contributor":{"type":"human"}');
    // The replay's Files view sees the change too.
    const changed = events.find((event) => event.body.type === "workspace-changed")?.body;
    expect(changed).toMatchObject({
      runId: null,
      files: expect.arrayContaining([expect.objectContaining({ path: "src/a.ts" })]),
    });
  }, 60_000);

  it("refuses a save when the file changed in the sandbox since it was opened, and writes nothing", async () => {
    const editor = owner();
    const opened = await editor.read({ sessionId: sessionId(), path: "README.md" });
    await world.sandbox.exec("echo 'the agent was here' >> README.md");
    const outcome = await editor.save({
      sessionId: sessionId(),
      path: "README.md",
      content: "mine\n",
      baseHash: opened.hash,
    });
    expect(outcome).toMatchObject({
      status: "conflict",
      message: expect.stringContaining("changed in the sandbox"),
    });
    expect((await world.sandbox.exec("tail -n 1 README.md")).stdout).toBe("the agent was here\n");
    expect(
      (await world.store.read(sessionId())).filter((event) => event.body.type === "file-edited"),
    ).toEqual([]);
    // A new file that appeared meanwhile is a conflict too.
    await world.sandbox.exec("echo x > late.txt");
    expect(
      await editor.save({ sessionId: sessionId(), path: "late.txt", content: "y\n", baseHash: null }),
    ).toMatchObject({ status: "conflict" });
  }, 60_000);

  it("asks before writing a protected path and writes it only with the binding of exactly that call", async () => {
    const editor = owner();
    const first = await editor.save({
      sessionId: sessionId(),
      path: "package.json",
      content: '{"name":"x"}\n',
      baseHash: null,
    });
    expect(first).toMatchObject({
      status: "confirm",
      reason: expect.stringContaining("package.json is protected (package scripts"),
    });
    expect((await world.sandbox.exec("test -e package.json; echo $?")).stdout).toBe("1\n");
    if (first.status !== "confirm") throw new Error("expected a question");
    // The binding is for that content only: other content is asked about again.
    const other = await editor.save({
      sessionId: sessionId(),
      path: "package.json",
      content: '{"name":"y"}\n',
      baseHash: null,
      confirmBinding: first.binding,
    });
    expect(other).toMatchObject({ status: "confirm" });
    expect((await world.sandbox.exec("test -e package.json; echo $?")).stdout).toBe("1\n");
    const saved = await editor.save({
      sessionId: sessionId(),
      path: "package.json",
      content: '{"name":"x"}\n',
      baseHash: null,
      confirmBinding: first.binding,
    });
    expect(saved).toMatchObject({ status: "saved" });
    expect((await world.sandbox.exec("cat package.json")).stdout).toBe('{"name":"x"}\n');
    const edited = (await world.store.read(sessionId())).find(
      (event) => event.body.type === "file-edited",
    )?.body;
    expect(edited).toMatchObject({
      path: "package.json",
      confirmed: expect.stringContaining("package scripts"),
    });
    // .env asks too (as an environment file that holds secrets).
    expect(
      await editor.save({ sessionId: sessionId(), path: ".env", content: "MODE=dev\n", baseHash: null }),
    ).toMatchObject({ status: "confirm", reason: expect.stringContaining(".env") });
  }, 60_000);

  it("refuses paths outside /workspace, by `..` or through a symlink, and binary files", async () => {
    const editor = owner();
    await expect(editor.read({ sessionId: sessionId(), path: "../etc/passwd" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("outside"),
    });
    await world.sandbox.exec(
      "ln -s /etc escape && head -c 64 /dev/urandom > blob.bin && printf '\\0' >> blob.bin",
    );
    await expect(editor.read({ sessionId: sessionId(), path: "escape/passwd" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(
      editor.save({ sessionId: sessionId(), path: "escape/evil", content: "x", baseHash: null }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(editor.list({ sessionId: sessionId(), path: "escape" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(editor.read({ sessionId: sessionId(), path: "blob.bin" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "blob.bin cannot be opened in the editor: it is a binary file (it contains NUL bytes).",
    });
    await expect(editor.read({ sessionId: sessionId(), path: "missing.txt" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  }, 60_000);

  it("lets a viewer list and read but never save; a stranger gets nothing", async () => {
    const viewer = await world.viewer();
    expect((await viewer.read({ sessionId: sessionId(), path: "README.md" })).text).toContain("Edited");
    await expect(
      viewer.save({ sessionId: sessionId(), path: "README.md", content: "no\n", baseHash: null }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("Viewers can watch"),
    });
    const stranger = await seedSession(world.db, "other");
    await expect(
      workspaceRouter.createCaller({ db: world.db, user: stranger.user }).list({ sessionId: sessionId() }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  }, 60_000);
});
