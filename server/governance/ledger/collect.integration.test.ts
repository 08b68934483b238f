import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DockerSandboxProvider, type Sandbox } from "@/server/sandbox";
import { validateJsonSchema } from "@/testing/ledger/agent-trace-schema";
import {
  collectCycleTrace,
  type LedgerExec,
  ledgerExecOf,
  snapshotWorkingTree,
  traceRecordedEvent,
} from "./collect";
import {
  type AgentTraceRecord,
  arborMetadataOf,
  contentHash,
  AgentTraceRecord as RecordSchema,
} from "./record";

/** Runs against the real Docker engine and sandbox image, like the sandbox's own integration tests. */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const PREFIX = `it-ledger-${randomBytes(4).toString("hex")}`;
const silent = pino({ level: "silent" });
let dir = "";
let provider: DockerSandboxProvider;
let sandbox: Sandbox;

// The runner the engine will use (created lazily: the sandbox exists only after beforeAll).
const exec: LedgerExec = (command) => ledgerExecOf(sandbox)(command);

async function sh(command: string): Promise<string> {
  const result = await sandbox.exec(command);
  if (result.exitCode !== 0) throw new Error(`${command}: ${result.stderr}`);
  return result.stdout;
}

/** One cycle as the engine will run it: snapshot, the action, then collect. */
async function cycle(command: string, cycleId: string, through: LedgerExec = exec) {
  const before = await snapshotWorkingTree(through);
  await sh(command);
  return collectCycleTrace({
    exec: through,
    before,
    sessionId: PREFIX,
    runId: "run-1",
    intentionId: "int-1",
    cycleId,
    modelId: "offline/heuristics",
    approver: null,
    checkResult: "SUCCESS",
  });
}

function expectValid(records: readonly AgentTraceRecord[]) {
  for (const record of records) {
    expect(validateJsonSchema(JSON.parse(JSON.stringify(record)))).toEqual([]);
    expect(RecordSchema.safeParse(record).success).toBe(true);
  }
}

/** What a person would see of the repository's state: none of it may change by collecting. */
async function visibleState(): Promise<string> {
  return sh(
    'git status --porcelain=v2 --untracked-files=all; echo ---; git ls-files -s; echo ---; git stash list; echo ---; git rev-parse HEAD; ls -a "$(git rev-parse --git-dir)" | grep -c arbor-ledger || true',
  );
}

beforeAll(async () => {
  execFileSync("bash", [path.join(ROOT, "sandbox-image/build.sh")], { stdio: "pipe" });
  provider = new DockerSandboxProvider({ logger: silent });
  dir = mkdtempSync(path.join(tmpdir(), "arbor-ledger-"));
  const repoPath = path.join(dir, "project.git");
  await createEmptyRepository(repoPath, "Ledger test");
  sandbox = await provider.create({ sessionId: `${PREFIX}-a`, repoPath });
}, 600_000);

afterAll(async () => {
  await provider?.sweepOrphans((ids) => new Set(ids.filter((id) => !id.startsWith(PREFIX))));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("collectCycleTrace in a real sandbox", () => {
  it("records a cycle's new and changed lines as one schema-valid record", async () => {
    const { records, problem, after } = await cycle(
      "mkdir -p src && printf 'export const a = 1;\\nexport const b = 2;\\nexport const c = 3;\\n' > src/x.ts && echo 'More docs.' >> README.md",
      "c1",
    );
    expect(problem).toBeNull();
    expect(after).toMatch(/^[0-9a-f]{40}$/);
    expect(traceRecordedEvent({ runId: "run-1", intentionId: "int-1", cycleId: "c1" }, { records })).toEqual({
      type: "trace-recorded",
      runId: "run-1",
      intentionId: "int-1",
      cycleId: "c1",
      records,
    });
    expect(records).toHaveLength(1);
    expectValid(records);
    const record = records[0] as AgentTraceRecord;
    expect(record.vcs?.revision).toBe((await sh("git rev-parse HEAD")).trim());
    expect(record.files).toEqual([
      {
        path: "README.md",
        conversations: [
          {
            contributor: { type: "ai", model_id: "offline/heuristics" },
            ranges: [{ start_line: 2, end_line: 2, content_hash: contentHash(["More docs."]) }],
          },
        ],
      },
      {
        path: "src/x.ts",
        conversations: [
          {
            contributor: { type: "ai", model_id: "offline/heuristics" },
            ranges: [
              {
                start_line: 1,
                end_line: 3,
                content_hash: contentHash([
                  "export const a = 1;",
                  "export const b = 2;",
                  "export const c = 3;",
                ]),
              },
            ],
          },
        ],
      },
    ]);
    expect(arborMetadataOf(record)).toMatchObject({
      session_id: PREFIX,
      run_id: "run-1",
      intention_id: "int-1",
      cycle_id: "c1",
      check_result: "SUCCESS",
      baseline: "snapshot",
    });
  });

  it("credits a later cycle with its own lines only, not the earlier cycle's", async () => {
    const { records } = await cycle("sed -i 's/b = 2/b = 20/' src/x.ts", "c2");
    expectValid(records);
    expect(records[0]?.files.map((file) => [file.path, file.conversations[0]?.ranges])).toEqual([
      ["src/x.ts", [{ start_line: 2, end_line: 2, content_hash: contentHash(["export const b = 20;"]) }]],
    ]);
  });

  it("records nothing for a cycle that changed nothing", async () => {
    const { records, problem } = await cycle("ls > /dev/null", "c3");
    expect(problem).toBeNull();
    expect(records).toEqual([]);
    expect(traceRecordedEvent({ runId: "r", intentionId: "i", cycleId: "c3" }, { records })).toBeNull();
  });

  it("leaves dependency folders out of the snapshot", async () => {
    const { records } = await cycle(
      "mkdir -p node_modules/dep sub/node_modules/x && echo 'module.exports = 1;' > node_modules/dep/index.js && echo y > sub/node_modules/x/y.js && echo 'own' > sub/own.txt",
      "c3b",
    );
    expectValid(records);
    expect(records[0]?.files.map((file) => file.path)).toEqual(["sub/own.txt"]);
    await sh("rm -rf node_modules sub");
  });

  it("lists deleted files in the metadata, with no ranges", async () => {
    await sh("printf 'bye\\n' > doomed.txt");
    const { records } = await cycle("rm doomed.txt", "c4");
    expectValid(records);
    expect(records[0]?.files).toEqual([]);
    expect(arborMetadataOf(records[0] as AgentTraceRecord)?.deleted_files).toEqual(["doomed.txt"]);
  });

  it("leaves the index, the working tree, HEAD and the stash exactly as they were", async () => {
    await sh("printf 'staged\\n' > staged.txt && git add staged.txt && echo 'unstaged' >> README.md");
    const state = await visibleState();
    const before = await snapshotWorkingTree(exec);
    await collectCycleTrace({
      exec,
      before,
      sessionId: PREFIX,
      runId: null,
      intentionId: null,
      cycleId: null,
      approver: null,
      checkResult: null,
    });
    expect(await visibleState()).toBe(state);
    expect(await sh("git diff --cached --name-only")).toBe("staged.txt\n");
  });

  it("diffs against HEAD when there was no snapshot, and says so", async () => {
    const result = await collectCycleTrace({
      exec,
      before: null,
      sessionId: PREFIX,
      runId: "run-1",
      intentionId: "int-1",
      cycleId: "c5",
      modelId: "m",
      approver: "Ada",
      checkResult: "PARTIAL",
    });
    expectValid(result.records);
    const meta = arborMetadataOf(result.records[0] as AgentTraceRecord);
    expect(meta).toMatchObject({ baseline: "head", approver: "Ada", check_result: "PARTIAL" });
    expect(result.records[0]?.files.map((file) => file.path).sort()).toEqual([
      "README.md",
      "src/x.ts",
      "staged.txt",
    ]);
  });

  it("falls back to one diff per file when the whole diff is too large to read", async () => {
    const capped: LedgerExec = async (command) => {
      const result = await exec(command);
      // The whole-tree diff has no pathspec: pretend it hit the output cap.
      return command.includes(" diff ") && command.includes("--unified=0") && !command.includes(" -- ")
        ? { ...result, truncated: true }
        : result;
    };
    const { records } = await cycle("printf 'p\\n' > p1.txt && printf 'q\\nr\\n' > 'p 2.txt'", "c6", capped);
    expectValid(records);
    expect(records[0]?.files.map((file) => [file.path, file.conversations[0]?.ranges.length])).toEqual([
      ["p 2.txt", 1],
      ["p1.txt", 1],
    ]);
  });

  it("reports a workspace that is not a git repository instead of throwing", async () => {
    const outside: LedgerExec = (command) => exec(`cd /tmp && ${command}`);
    const result = await collectCycleTrace({
      exec: outside,
      before: null,
      sessionId: PREFIX,
      runId: null,
      intentionId: null,
      cycleId: null,
      approver: null,
      checkResult: null,
    });
    expect(result).toEqual({ records: [], after: null, problem: "the workspace is not a git repository" });
  });
});
