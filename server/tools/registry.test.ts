import { describe, expect, it } from "vitest";
import { TOOL_NAMES, TOOL_PROFILES } from "@/server/domain/tools/risk";
import { TOOLS, toolManuals, toolNamed } from "./registry";

/** A valid input for every tool, used to show that one extra key is enough to be refused. */
const VALID: Record<(typeof TOOL_NAMES)[number], Record<string, unknown>> = {
  "fs.read": { path: "src/a.ts" },
  "fs.list": {},
  "fs.search": { pattern: "TODO" },
  "fs.write": { path: "src/a.ts", content: "x\n" },
  "fs.edit": { path: "src/a.ts", search: "x", replace: "y" },
  "fs.delete": { path: "src/a.ts" },
  "git.status": {},
  "git.diff": {},
  "git.log": {},
  "git.add": { paths: ["src/a.ts"] },
  "git.commit": { message: "Add a" },
  "git.branch": { name: "feature/a" },
  "git.checkout": { branch: "main" },
  "shell.exec": { command: "npm test" },
  select_active_intent: { intent_id: "INT-001" },
  "setup.run": { command: "npm ci" },
};

describe("the tool registry", () => {
  it("has exactly one tool per name of the approval gate's vocabulary, with the risk table's class", () => {
    expect(Object.keys(TOOLS).sort()).toEqual([...TOOL_NAMES].sort());
    for (const name of TOOL_NAMES) {
      expect(TOOLS[name].name).toBe(name);
      expect(TOOLS[name].risk).toBe(TOOL_PROFILES[name].risk);
    }
  });

  it("classes risk as seed 004 does", () => {
    const byRisk = (risk: string) => TOOL_NAMES.filter((name) => TOOLS[name].risk === risk).sort();
    expect(byRisk("safe")).toEqual(
      ["fs.list", "fs.read", "fs.search", "git.diff", "git.log", "git.status", "select_active_intent"].sort(),
    );
    expect(byRisk("moderate")).toEqual(["fs.edit", "fs.write", "git.add", "git.branch", "git.commit"]);
    expect(byRisk("dangerous")).toEqual(["fs.delete", "git.checkout", "setup.run", "shell.exec"]);
  });

  it.each(TOOL_NAMES)("%s has an operating manual that says what it needs", (name) => {
    const manual = TOOLS[name].description;
    expect(manual.length).toBeGreaterThan(150);
    if (TOOLS[name].risk === "safe") expect(manual).toMatch(/no approval/i);
    else expect(manual).toMatch(/active intent/i);
  });

  it.each(TOOL_NAMES)("%s accepts its valid input and refuses any extra key", (name) => {
    const schema = TOOLS[name].input;
    expect(schema.safeParse(VALID[name]).success).toBe(true);
    expect(schema.safeParse({ ...VALID[name], force: true }).success).toBe(false);
    expect(schema.safeParse("not an object").success).toBe(false);
  });

  it("offers the model every tool's input as a closed JSON Schema", () => {
    const manuals = toolManuals();
    expect(manuals.map((manual) => manual.name).sort()).toEqual([...TOOL_NAMES].sort());
    const write = manuals.find((manual) => manual.name === "fs.write")?.inputSchema as Record<
      string,
      unknown
    >;
    expect(write).toMatchObject({
      type: "object",
      required: ["path", "content"],
      additionalProperties: false,
    });
    const edit = manuals.find((manual) => manual.name === "fs.edit")?.inputSchema as { required: string[] };
    // Defaults are optional for the model to send.
    expect(edit.required).toEqual(["path", "search", "replace"]);
  });

  it("knows no other tool", () => {
    expect(toolNamed("git.push")).toBeNull();
    expect(toolNamed("constructor")).toBeNull();
    expect(toolNamed("fs.read")?.name).toBe("fs.read");
  });
});

describe("schemas", () => {
  it("fs.edit needs a non-empty search text; fs.read line numbers are positive", () => {
    expect(TOOLS["fs.edit"].input.safeParse({ path: "a", search: "", replace: "b" }).success).toBe(false);
    expect(TOOLS["fs.read"].input.safeParse({ path: "a", startLine: 0 }).success).toBe(false);
    expect(TOOLS["fs.read"].input.safeParse({ path: "" }).success).toBe(false);
  });

  it("fills in defaults, so the approval binding covers what really runs", () => {
    expect(TOOLS["fs.edit"].input.parse({ path: "a", search: "x", replace: "y" })).toEqual({
      path: "a",
      search: "x",
      replace: "y",
      all: false,
    });
    expect(TOOLS["shell.exec"].input.parse({ command: "ls" })).toEqual({ command: "ls" });
  });

  it("refuses blank commands and commit messages, and paths of the wrong type", () => {
    expect(TOOLS["shell.exec"].input.safeParse({ command: "  \n" }).success).toBe(false);
    expect(TOOLS["git.commit"].input.safeParse({ message: " " }).success).toBe(false);
    expect(TOOLS["fs.write"].input.safeParse({ path: 7, content: "x" }).success).toBe(false);
    expect(TOOLS["git.add"].input.safeParse({ paths: [] }).success).toBe(false);
  });
});

describe("no git tool can force-push or rewrite history", () => {
  const rewriting = [
    { force: true },
    { amend: true },
    { hard: true },
    { args: ["--force"] },
    { flags: "--amend" },
    { push: true },
    { rebase: "main" },
  ];
  const gitTools = TOOL_NAMES.filter((name) => name.startsWith("git."));

  it.each(gitTools)("%s accepts no force, amend, push, rebase or free-form arguments", (name) => {
    for (const extra of rewriting)
      expect(TOOLS[name].input.safeParse({ ...VALID[name], ...extra }).success, JSON.stringify(extra)).toBe(
        false,
      );
  });

  it.each([
    "--force",
    "-f",
    "-D",
    "--delete=main",
    "a..b",
    "x.lock",
    "+main",
    "main:other",
    "HEAD@{1}",
    ".hidden",
    "a b",
  ])("refuses %j as a branch name (it could read as an option or a refspec)", (name) => {
    expect(TOOLS["git.branch"].input.safeParse({ name }).success).toBe(false);
    expect(TOOLS["git.checkout"].input.safeParse({ branch: name }).success).toBe(false);
    expect(TOOLS["git.branch"].input.safeParse({ name: "ok", from: name }).success).toBe(false);
  });

  it("has no tool that pushes, rebases, resets or amends", () => {
    expect(TOOL_NAMES.filter((name) => /push|rebase|reset|amend|force/.test(name))).toEqual([]);
  });
});
