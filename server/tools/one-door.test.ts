import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DirectUse, findDirectSandboxUses } from "@/testing/sandbox/sandbox-calls-scan";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The only code allowed to call the sandbox's exec / readFile / writeFile directly. Everything the
 * agent does goes through the tool dispatch (`server/tools/`); each other entry says why it is not
 * an agent action. Adding a file here is a design decision: say why in `why`.
 */
const ALLOWED: ReadonlyArray<{ prefix: string; why: string }> = [
  { prefix: "server/tools/", why: "the dispatch and the tools: the one door" },
  {
    prefix: "server/sandbox/",
    why: "the sandbox module itself, its toolchain probe (toolchains.ts: a fixed list of `--version` calls the system runs when a sandbox is acquired, never the agent's) and the `true` that proves a sandbox answers again after its host came back (hosts/sandbox-answers.ts)",
  },
  {
    prefix: "server/governance/sandbox-realpath.ts",
    why: "the dispatch's scope guard resolves symlinks inside the sandbox (realpath -m, read-only)",
  },
  {
    prefix: "server/governance/ledger/collect.ts",
    why: "the dispatch's trace ledger snapshots the working tree as git objects; never touches files or the index",
  },
  {
    prefix: "server/intents/mirror.ts",
    why: "a system write: the project's intents, edited by people on the project page, copied into the workspace as .orchestration/active_intents.yaml (links removed, never followed); the agent's own writes there still ask",
  },
  {
    prefix: "server/git/session-work.ts",
    why: "a person saving the session's work (commit on the session branch, git bundle export) and the Changes tab's diff (stages into a throw-away index, so it writes git objects only and never the files or the workspace's index; no external diff or textconv programs)",
  },
  {
    prefix: "server/git/session-snapshots.ts",
    why: "a system snapshot after each VERIFIED intention when sandboxes run on several Docker hosts (a throw-away index, git objects and one ref under refs/arbor/, never the files or the workspace's index), and its restore into a fresh sandbox before any agent work there",
  },
];

describe("one door for every tool", () => {
  let uses: DirectUse[] = [];
  // Type-checks server/** and app/**: about 20 s on a busy 2-core machine.
  beforeAll(() => {
    uses = findDirectSandboxUses(ROOT, ["server", "app"]);
  }, 180_000);

  it("finds the dispatch's own calls (the scan sees through the types)", () => {
    const files = new Set(uses.map((use) => use.file));
    expect(files).toContain("server/tools/sandbox-calls.ts");
    expect(files).toContain("server/tools/write-file.ts");
    // SandboxExec (the domain's exec port, server/domain/sandbox-port.ts) is still the sandbox's exec.
    expect(files).toContain("server/governance/sandbox-realpath.ts");
  });

  it("nothing outside the dispatch and the commented allow-list calls the sandbox's exec, readFile or writeFile", () => {
    const outside = uses.filter((use) => !ALLOWED.some((entry) => use.file.startsWith(entry.prefix)));
    expect(outside.map((use) => `${use.file}:${use.line} ${use.method}`)).toEqual([]);
  });

  it("every allow-list entry is still needed", () => {
    const stale = ALLOWED.filter((entry) => !uses.some((use) => use.file.startsWith(entry.prefix)));
    expect(stale.map((entry) => entry.prefix)).toEqual([]);
  });
});

describe("the scan itself", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-one-door-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function fixture(files: Record<string, string>) {
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), content);
    }
  }

  it("flags a new direct call in any form, and not look-alikes", () => {
    fixture({
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, module: "esnext", moduleResolution: "bundler", target: "ES2022" },
        include: ["**/*.ts"],
      }),
      "server/sandbox/types.ts": [
        "export interface Sandbox {",
        "  exec(command: string): Promise<string>;",
        "  readFile(path: string): Promise<string>;",
        "  writeFile(path: string, content: string): Promise<void>;",
        "}",
      ].join("\n"),
      "server/feature/sneaky.ts": [
        'import type { Sandbox } from "../sandbox/types";',
        "export async function sneaky(sandbox: Sandbox, picked: Pick<Sandbox, 'writeFile'>) {",
        '  await sandbox.exec("rm -rf /workspace");',
        '  await sandbox["readFile"]("a");',
        "  const { exec } = sandbox;",
        '  await picked.writeFile("b", "c");',
        '  /x/.exec("x");',
        "  return exec;",
        "}",
      ].join("\n"),
      "app/page.ts": 'export const page = /y/.exec("y");\n',
    });
    const found = findDirectSandboxUses(dir, ["server", "app"]);
    expect(found.map((use) => `${use.file}:${use.line} ${use.method}`)).toEqual([
      "server/feature/sneaky.ts:3 exec",
      "server/feature/sneaky.ts:4 readFile",
      "server/feature/sneaky.ts:5 exec",
      "server/feature/sneaky.ts:6 writeFile",
    ]);
    // Type-checking even a small program takes seconds on a loaded machine.
  }, 60_000);
});
