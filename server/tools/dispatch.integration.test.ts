import { describe, expect, it } from "vitest";
import { INTENT_REQUIRED_ERROR } from "@/server/governance/intent-gate";
import { SCOPED, toolSandboxSuite, WIDE } from "@/testing/sandbox/tool-sandbox-suite";
import type { DispatchContext } from "./dispatch";

/** The fs tools and the gates through the one door, against the real Docker sandbox and a real git clone. */
const { dispatchWith, sh } = toolSandboxSuite("tools");

describe("fs tools", () => {
  const tools = () => dispatchWith();

  it("write → read → list → search, with numbered lines", async () => {
    const write = await tools().run(
      { tool: "fs.write", input: { path: "src/app.ts", content: "const a = 1;\nconst b = 2;\n" } },
      { activeIntent: SCOPED },
    );
    expect(write).toMatchObject({ status: "ok", output: "Wrote src/app.ts: 2 lines, 26 bytes." });
    expect(await sh("cat src/app.ts")).toBe("const a = 1;\nconst b = 2;\n");
    const read = await tools().run(
      { tool: "fs.read", input: { path: "src/app.ts", startLine: 2 } },
      { activeIntent: null },
    );
    expect(read).toMatchObject({ status: "ok", output: "     2\tconst b = 2;\n" });
    // The typed data next to the text: the lines as in the file, no numbers to strip.
    expect(read.data).toEqual({ text: "const b = 2;\n", firstLine: 2, truncated: false });
    const list = await tools().run({ tool: "fs.list", input: {} }, { activeIntent: null });
    expect(list.output.split("\n")).toEqual(expect.arrayContaining(["d .git", "f README.md", "d src"]));
    const deep = await tools().run(
      { tool: "fs.list", input: { path: "src", recursive: true } },
      { activeIntent: null },
    );
    expect(deep.output).toBe("f src/app.ts");
    expect(deep.data).toEqual({ entries: [{ kind: "file", path: "src/app.ts" }], more: false });
    const search = await tools().run(
      { tool: "fs.search", input: { pattern: "b = 2" } },
      { activeIntent: null },
    );
    expect(search).toMatchObject({ status: "ok", output: "src/app.ts:2:const b = 2;" });
    expect(search.data).toEqual({
      matches: [{ path: "src/app.ts", line: 2, text: "const b = 2;" }],
      more: false,
    });
    // A path that reads like `path:line:` is still one path in the data (grep -Z ends it with a NUL).
    await sh("mkdir -p 'src/x:9:' && printf 'b = 2\\n' > 'src/x:9:/y.ts'");
    const odd = await tools().run(
      { tool: "fs.search", input: { pattern: "b = 2", path: "src/x:9:" } },
      { activeIntent: null },
    );
    expect(odd.output).toBe("src/x:9:/y.ts:1:b = 2");
    expect(odd.data).toEqual({ matches: [{ path: "src/x:9:/y.ts", line: 1, text: "b = 2" }], more: false });
    await sh("rm -rf 'src/x:9:'");
    const none = await tools().run({ tool: "fs.search", input: { pattern: "zzz" } }, { activeIntent: null });
    expect(none).toMatchObject({ status: "ok", output: 'No matches for "zzz" in ..' });
    expect(none.data).toEqual({ matches: [], more: false });
  });

  it("reports a missing file, a directory and a missing search text as results, not crashes", async () => {
    const missing = await tools().run(
      { tool: "fs.read", input: { path: "nope.txt" } },
      { activeIntent: null },
    );
    expect(missing).toMatchObject({
      status: "failed",
      error: { code: "not_found", message: "nope.txt does not exist." },
    });
    const dir = await tools().run({ tool: "fs.read", input: { path: "src" } }, { activeIntent: null });
    expect(dir).toMatchObject({ status: "failed", error: { code: "not_a_file" } });
    const edit = await tools().run(
      { tool: "fs.edit", input: { path: "src/nope.ts", search: "a", replace: "b" } },
      { activeIntent: SCOPED },
    );
    expect(edit).toMatchObject({ status: "failed", error: { code: "not_found" } });
    const del = await tools().run(
      { tool: "fs.delete", input: { path: "src/nope.ts" } },
      { activeIntent: SCOPED },
    );
    expect(del).toMatchObject({ status: "failed", error: { code: "not_found" } });
  });

  it("edits exactly one occurrence; a missing or ambiguous search text changes nothing", async () => {
    await sh("mkdir -p src && printf 'x = 1\\ny = 1\\nx = 1\\n' > src/edit.py");
    const ambiguous = await tools().run(
      { tool: "fs.edit", input: { path: "src/edit.py", search: "x = 1", replace: "x = 2" } },
      { activeIntent: SCOPED },
    );
    expect(ambiguous).toMatchObject({ status: "failed", error: { code: "search_ambiguous" } });
    expect(ambiguous.error?.message).toContain("lines 1, 3");
    const missing = await tools().run(
      { tool: "fs.edit", input: { path: "src/edit.py", search: "z = 1", replace: "z = 2" } },
      { activeIntent: SCOPED },
    );
    expect(missing).toMatchObject({ status: "failed", error: { code: "search_not_found" } });
    expect(await sh("cat src/edit.py")).toBe("x = 1\ny = 1\nx = 1\n");
    const edited = await tools().run(
      { tool: "fs.edit", input: { path: "src/edit.py", search: "y = 1", replace: "y = 'it''s $HOME'" } },
      { activeIntent: SCOPED },
    );
    expect(edited).toMatchObject({
      status: "ok",
      output: "Edited src/edit.py: 1 replacement, first at line 2.",
    });
    expect(await sh("cat src/edit.py")).toBe("x = 1\ny = 'it''s $HOME'\nx = 1\n");
  });

  it("deletes a file but not a directory", async () => {
    await sh("mkdir -p src/dir && touch src/gone.txt");
    expect(
      await tools().run({ tool: "fs.delete", input: { path: "src/dir" } }, { activeIntent: SCOPED }),
    ).toMatchObject({ status: "failed", error: { code: "not_a_file" } });
    expect(
      await tools().run({ tool: "fs.delete", input: { path: "src/gone.txt" } }, { activeIntent: SCOPED }),
    ).toMatchObject({ status: "ok", output: "Deleted src/gone.txt." });
    expect(await sh("test -e src/gone.txt || echo gone")).toBe("gone\n");
  });
});

describe("gates against the real sandbox", () => {
  it("blocks a write without an intent, with seed 003's error", async () => {
    const result = await dispatchWith().run(
      { tool: "fs.write", input: { path: "src/x.ts", content: "x" } },
      { activeIntent: null },
    );
    expect(result).toMatchObject({ status: "denied", error: { message: INTENT_REQUIRED_ERROR } });
  });

  it("refuses `..` and symlink escapes for reads and writes", async () => {
    await sh(
      "ln -sfn /etc src/etc && ln -sfn ../README.md src/readme-link && ln -sfn /tmp/outside notes-link",
    );
    const tools = dispatchWith();
    const cases: [string, unknown, DispatchContext][] = [
      ["fs.read", { path: "../etc/passwd" }, { activeIntent: null }],
      ["fs.read", { path: "src/etc/passwd" }, { activeIntent: null }],
      ["fs.list", { path: "src/etc" }, { activeIntent: null }],
      ["fs.search", { pattern: "root", path: "src/etc" }, { activeIntent: null }],
      ["fs.write", { path: "src/../../tmp/x", content: "x" }, { activeIntent: WIDE }],
      ["fs.write", { path: "src/etc/evil", content: "x" }, { activeIntent: WIDE }],
      // In scope as written, but the link leads to README.md, outside src/**.
      ["fs.write", { path: "src/readme-link", content: "x" }, { activeIntent: SCOPED }],
      ["git.add", { paths: ["src/etc"] }, { activeIntent: WIDE }],
    ];
    for (const [tool, input, context] of cases) {
      const result = await tools.run({ tool, input }, context);
      expect(result.status, `${tool} ${JSON.stringify(input)}`).toBe("denied");
    }
    expect(await sh("cat README.md")).toBe("# Sandbox test project\n");
    expect(await sh("test -e /tmp/x || echo absent")).toBe("absent\n");
    // fs.delete acts on the entry (issue #16.10): the link is in scope and is removed; README.md,
    // which it points to outside src/**, is never touched.
    const deleted = await tools.run(
      { tool: "fs.delete", input: { path: "src/readme-link" } },
      { activeIntent: SCOPED },
    );
    expect(deleted.status).toBe("ok");
    expect(await sh("test -L src/readme-link || echo gone")).toBe("gone\n");
    expect(await sh("cat README.md")).toBe("# Sandbox test project\n");
  });

  it("asks (with confirmation) before protected paths, even pre-approved, existing or not", async () => {
    await sh("ln -sfn ../.git/hooks/pre-commit src/hook");
    const tools = dispatchWith();
    for (const path of [
      "package.json",
      ".git/hooks/pre-commit",
      ".orchestration/active_intents.yaml",
      "sub/.env",
    ]) {
      const result = await tools.run(
        { tool: "fs.write", input: { path, content: "x" } },
        { activeIntent: WIDE },
      );
      expect(result, path).toMatchObject({ status: "ask", gate: { decision: "ask", confirm: true } });
      // .env is caught first as a secret-holding file; the others as protected paths.
      expect(result.gate?.reason).toMatch(/protected|environment file/);
    }
    // A link in scope to a hook is judged on where it leads.
    const viaLink = await tools.run(
      { tool: "fs.write", input: { path: "src/hook", content: "x" } },
      { activeIntent: WIDE },
    );
    expect(viaLink).toMatchObject({ status: "ask", gate: { confirm: true } });
    expect(await sh("test -e package.json || echo absent")).toBe("absent\n");
  });

  it("writes outside the owned scope are a scope violation", async () => {
    const result = await dispatchWith().run(
      { tool: "fs.write", input: { path: "docs/x.md", content: "x" } },
      { activeIntent: SCOPED },
    );
    expect(result.error?.message).toContain("Scope Violation: INT-001 is not authorized to edit docs/x.md");
  });
});
