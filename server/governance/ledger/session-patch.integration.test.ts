import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DockerSandboxProvider, type Sandbox } from "@/server/sandbox";
import { ledgerExecOf } from "./collect";
import { CycleLedger } from "./cycle-ledger";

/** The session patch against the real Docker engine and sandbox image: cumulative from the start. */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const PREFIX = `it-patch-${randomBytes(4).toString("hex")}`;
const silent = pino({ level: "silent" });
let dir = "";
let provider: DockerSandboxProvider;
let sandbox: Sandbox;

async function sh(command: string): Promise<string> {
  const result = await sandbox.exec(command);
  if (result.exitCode !== 0) throw new Error(`${command}: ${result.stderr}`);
  return result.stdout;
}

beforeAll(async () => {
  execFileSync("bash", [path.join(ROOT, "sandbox-image/build.sh")], { stdio: "pipe" });
  provider = new DockerSandboxProvider({ logger: silent });
  dir = mkdtempSync(path.join(tmpdir(), "arbor-patch-"));
  const repoPath = path.join(dir, "project.git");
  await createEmptyRepository(repoPath, "Patch test");
  sandbox = await provider.create({ sessionId: `${PREFIX}-a`, repoPath });
}, 600_000);

afterAll(async () => {
  await provider?.sweepOrphans((ids) => new Set(ids.filter((id) => !id.startsWith(PREFIX))));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the session patch in a real sandbox", () => {
  it("shows every change since the session started, across cycles and commits, and nothing for a read", async () => {
    const ledger = new CycleLedger(ledgerExecOf(sandbox), { sessionId: PREFIX, modelId: "m" });
    const start = (await sh("git rev-parse HEAD")).trim();
    const cycle = async (command: string, cycleId: string) => {
      const ids = { runId: "r", intentionId: "i", cycleId };
      const mark = await ledger.begin();
      await sh(command);
      await ledger.afterAction(mark, ids);
      return ledger.workspaceChanged(ids);
    };

    const first = await cycle("printf 'hello\\n' > notes.txt", "c1");
    expect(first).toMatchObject({
      type: "workspace-changed",
      cycleId: "c1",
      base: start,
      files: [{ path: "notes.txt", added: 1, removed: 0 }],
      truncated: false,
    });
    expect(first?.patch).toContain("+++ b/notes.txt\n@@ -0,0 +1 @@\n+hello\n");

    // A commit in between (saving the work) does not move the start: the patch stays cumulative.
    await sh("git add -A && git -c user.name=a -c user.email=a@b commit -qm save");
    const second = await cycle("printf 'world\\n' >> notes.txt && echo more >> README.md", "c2");
    expect(second?.base).toBe(start);
    expect(second?.files).toEqual([
      { path: "README.md", added: 1, removed: 0 },
      { path: "notes.txt", added: 2, removed: 0 },
    ]);
    expect(second?.patch).toContain("+hello\n+world\n");

    expect(await cycle("cat notes.txt", "c3")).toBeNull();
    // Taken once: asking again for the same cycle gives nothing.
    expect(ledger.workspaceChanged({ runId: "r", intentionId: "i", cycleId: "c2" })).toBeNull();
  });
});
