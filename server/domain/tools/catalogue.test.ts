import { describe, expect, it } from "vitest";
import {
  categoryOf,
  isMutatingTool,
  READ_ONLY_TOOLS,
  riskOf,
  SERVER_ONLY_TOOLS,
  TOOL_NAMES,
  TOOL_SPECS,
  type ToolName,
  toolNameOfWire,
  toolSpecOf,
} from "./catalogue";

/** A valid input for every tool, used to show that one extra key is enough to be refused. */
const VALID: Record<ToolName, Record<string, unknown>> = {
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

// Seed 004's classes, written out by hand so the catalogue's specs are checked against the seed.
const SEED_RISK = {
  "fs.read": "safe",
  "fs.list": "safe",
  "fs.search": "safe",
  "git.status": "safe",
  "git.diff": "safe",
  "git.log": "safe",
  select_active_intent: "safe",
  "setup.run": "dangerous",
  "fs.write": "moderate",
  "fs.edit": "moderate",
  "git.add": "moderate",
  "git.commit": "moderate",
  "git.branch": "moderate",
  "fs.delete": "dangerous",
  "shell.exec": "dangerous",
  "git.checkout": "dangerous",
} as const;

describe("the catalogue", () => {
  it("has one spec per name, each under its own name", () => {
    expect(new Set(TOOL_NAMES).size).toBe(TOOL_NAMES.length);
    for (const name of TOOL_NAMES) expect(TOOL_SPECS[name].name).toBe(name);
  });

  it("gives every tool a provider-valid, unique wire name that leads back to it", () => {
    const wires = TOOL_NAMES.map((name) => TOOL_SPECS[name].wireName);
    for (const wire of wires) expect(wire).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(wires).size).toBe(TOOL_NAMES.length);
    for (const name of TOOL_NAMES) expect(toolNameOfWire(TOOL_SPECS[name].wireName)).toBe(name);
    expect(toolNameOfWire("fs.read")).toBeNull();
  });

  it("offers read-only tools only, and only the safe ones, as read-only; server-only tools in no stage", () => {
    expect(READ_ONLY_TOOLS).toEqual(["fs.read", "fs.list", "fs.search", "git.status", "git.diff", "git.log"]);
    for (const name of READ_ONLY_TOOLS) expect(TOOL_SPECS[name].risk).toBe("safe");
    for (const name of READ_ONLY_TOOLS) expect(TOOL_SPECS[name].writes).toBe(false);
    expect(SERVER_ONLY_TOOLS).toEqual(["setup.run"]);
  });

  it("classes risk as seed 004 does", () => {
    const byRisk = (risk: string) => TOOL_NAMES.filter((name) => TOOL_SPECS[name].risk === risk).sort();
    expect(byRisk("safe")).toEqual(
      ["fs.list", "fs.read", "fs.search", "git.diff", "git.log", "git.status", "select_active_intent"].sort(),
    );
    expect(byRisk("moderate")).toEqual(["fs.edit", "fs.write", "git.add", "git.branch", "git.commit"]);
    expect(byRisk("dangerous")).toEqual(["fs.delete", "git.checkout", "setup.run", "shell.exec"]);
  });

  it.each(TOOL_NAMES)("%s has an operating manual that says what it needs", (name) => {
    const manual = TOOL_SPECS[name].description;
    expect(manual.length).toBeGreaterThan(150);
    if (TOOL_SPECS[name].risk === "safe") expect(manual).toMatch(/no approval/i);
    else expect(manual).toMatch(/active intent/i);
  });

  it.each(TOOL_NAMES)("%s accepts its valid input and refuses any extra key", (name) => {
    const schema = TOOL_SPECS[name].input;
    expect(schema.safeParse(VALID[name]).success).toBe(true);
    expect(schema.safeParse({ ...VALID[name], force: true }).success).toBe(false);
    expect(schema.safeParse("not an object").success).toBe(false);
  });
});

describe("risk table", () => {
  it("covers exactly the tool vocabulary", () => {
    expect(Object.keys(TOOL_SPECS).sort()).toEqual([...TOOL_NAMES].sort());
    expect(Object.keys(SEED_RISK).sort()).toEqual([...TOOL_NAMES].sort());
  });

  it.each(Object.entries(SEED_RISK))("%s is %s", (tool, risk) => {
    expect(riskOf(tool)).toBe(risk);
    expect(isMutatingTool(tool)).toBe(risk !== "safe");
  });

  it.each([
    ["fs.read", "read"],
    ["fs.delete", "write"],
    ["git.diff", "git-read"],
    ["git.checkout", "git-write"],
    ["shell.exec", "shell"],
    ["select_active_intent", "intent"],
  ])("%s belongs to the %s category", (tool, category) => {
    expect(categoryOf(tool)).toBe(category);
  });

  it.each(["fs.rm", "", "FS.READ", "constructor", "__proto__", "toString", "shell.exec "])(
    "an unknown tool %j has no profile and counts as mutating",
    (tool) => {
      expect(toolSpecOf(tool)).toBeNull();
      expect(riskOf(tool)).toBeNull();
      expect(categoryOf(tool)).toBeNull();
      expect(isMutatingTool(tool)).toBe(true);
    },
  );
});

describe("schemas", () => {
  it("fs.edit needs a non-empty search text; fs.read line numbers are positive", () => {
    expect(TOOL_SPECS["fs.edit"].input.safeParse({ path: "a", search: "", replace: "b" }).success).toBe(
      false,
    );
    expect(TOOL_SPECS["fs.read"].input.safeParse({ path: "a", startLine: 0 }).success).toBe(false);
    expect(TOOL_SPECS["fs.read"].input.safeParse({ path: "" }).success).toBe(false);
  });

  it("fills in defaults, so the approval binding covers what really runs", () => {
    expect(TOOL_SPECS["fs.edit"].input.parse({ path: "a", search: "x", replace: "y" })).toEqual({
      path: "a",
      search: "x",
      replace: "y",
      all: false,
    });
    expect(TOOL_SPECS["shell.exec"].input.parse({ command: "ls" })).toEqual({ command: "ls" });
  });

  it("refuses blank commands and commit messages, and paths of the wrong type", () => {
    expect(TOOL_SPECS["shell.exec"].input.safeParse({ command: "  \n" }).success).toBe(false);
    expect(TOOL_SPECS["git.commit"].input.safeParse({ message: " " }).success).toBe(false);
    expect(TOOL_SPECS["fs.write"].input.safeParse({ path: 7, content: "x" }).success).toBe(false);
    expect(TOOL_SPECS["git.add"].input.safeParse({ paths: [] }).success).toBe(false);
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
      expect(
        TOOL_SPECS[name].input.safeParse({ ...VALID[name], ...extra }).success,
        JSON.stringify(extra),
      ).toBe(false);
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
    expect(TOOL_SPECS["git.branch"].input.safeParse({ name }).success).toBe(false);
    expect(TOOL_SPECS["git.checkout"].input.safeParse({ branch: name }).success).toBe(false);
    expect(TOOL_SPECS["git.branch"].input.safeParse({ name: "ok", from: name }).success).toBe(false);
  });

  it("has no tool that pushes, rebases, resets or amends", () => {
    expect(TOOL_NAMES.filter((name) => /push|rebase|reset|amend|force/.test(name))).toEqual([]);
  });
});
