import { describe, expect, it } from "vitest";
import { validateJsonSchema } from "@/testing/ledger/agent-trace-schema";
import { collectCycleTrace, EMPTY_TREE, type LedgerExec, snapshotWorkingTree } from "./collect";
import { arborMetadataOf } from "./record";

const TREE_A = "a".repeat(40);
const TREE_B = "b".repeat(40);
const ids = {
  sessionId: "s",
  runId: "r",
  intentionId: "i",
  cycleId: "c",
  approver: null,
  checkResult: "SUCCESS",
};

/** A scripted sandbox: answers each git command the collector sends by what it starts with. */
function scripted(answers: {
  snapshot?: string | Error;
  head?: string | null;
  diff?: string;
  truncated?: boolean;
}): { exec: LedgerExec; commands: string[] } {
  const commands: string[] = [];
  const exec: LedgerExec = async (command) => {
    commands.push(command);
    if (command.includes("write-tree")) {
      if (answers.snapshot instanceof Error) throw answers.snapshot;
      return { exitCode: 0, stdout: `${answers.snapshot ?? TREE_B}\n` };
    }
    if (command.startsWith("git rev-parse")) {
      return answers.head ? { exitCode: 0, stdout: `${answers.head}\n` } : { exitCode: 1, stdout: "" };
    }
    if (command.includes("--name-only")) return { exitCode: 0, stdout: "big.txt\nsmall.txt\n" };
    if (command.includes("--unified=0")) {
      if (command.includes("big.txt")) return { exitCode: 0, stdout: "…", truncated: true };
      if (command.includes("small.txt"))
        return {
          exitCode: 0,
          stdout: "diff --git a/small.txt b/small.txt\n--- a/small.txt\n+++ b/small.txt\n@@ -0,0 +1 @@\n+s\n",
        };
      return { exitCode: 0, stdout: answers.diff ?? "", truncated: answers.truncated ?? false };
    }
    return { exitCode: 127, stdout: "" };
  };
  return { exec, commands };
}

describe("collectCycleTrace with a scripted sandbox", () => {
  it("diffs the snapshot before the cycle against the one after it", async () => {
    const { exec, commands } = scripted({
      head: "c".repeat(40),
      diff: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
    });
    const result = await collectCycleTrace({ exec, before: TREE_A, ...ids, modelId: "m" });
    expect(result.problem).toBeNull();
    expect(result.after).toBe(TREE_B);
    expect(commands.some((command) => command.includes(`--unified=0 ${TREE_A} ${TREE_B}`))).toBe(true);
    expect(result.records).toHaveLength(1);
    expect(validateJsonSchema(result.records[0])).toEqual([]);
  });

  it("falls back to HEAD, then to the empty tree, without a snapshot", async () => {
    const withHead = scripted({ head: "c".repeat(40) });
    await collectCycleTrace({ exec: withHead.exec, before: null, ...ids });
    expect(withHead.commands.some((command) => command.includes(`${"c".repeat(40)} ${TREE_B}`))).toBe(true);
    const empty = scripted({ head: null });
    await collectCycleTrace({ exec: empty.exec, before: null, ...ids });
    expect(empty.commands.some((command) => command.includes(`${EMPTY_TREE} ${TREE_B}`))).toBe(true);
  });

  it("skips the diff when the tree did not change", async () => {
    const { exec, commands } = scripted({});
    expect(await collectCycleTrace({ exec, before: TREE_B, ...ids })).toEqual({
      records: [],
      after: TREE_B,
      problem: null,
    });
    expect(commands.some((command) => command.includes("--unified=0"))).toBe(false);
  });

  it("reads a too-large diff file by file and lists the files still too large", async () => {
    const { exec } = scripted({ truncated: true });
    const { records } = await collectCycleTrace({ exec, before: TREE_A, ...ids });
    expect(records[0]?.files.map((file) => file.path)).toEqual(["small.txt"]);
    expect(arborMetadataOf(records[0] as never)?.truncated_files).toEqual(["big.txt"]);
    expect(validateJsonSchema(records[0])).toEqual([]);
  });

  it("never throws: a failing sandbox becomes a problem, a failed snapshot becomes null", async () => {
    const { exec } = scripted({ snapshot: new Error("container gone") });
    expect(await snapshotWorkingTree(exec)).toBeNull();
    const broken: LedgerExec = async () => {
      throw new Error("container gone");
    };
    expect(await collectCycleTrace({ exec: broken, before: TREE_A, ...ids })).toMatchObject({
      records: [],
      problem: "the workspace is not a git repository",
    });
    const diffFails: LedgerExec = async (command) =>
      command.includes("--unified=0")
        ? { exitCode: 128, stdout: "" }
        : command.includes("write-tree")
          ? { exitCode: 0, stdout: TREE_B }
          : { exitCode: 1, stdout: "" };
    expect(await collectCycleTrace({ exec: diffFails, before: TREE_A, ...ids })).toEqual({
      records: [],
      after: null,
      problem: "git diff exited with 128",
    });
  });

  it("rejects snapshot output that is not an object id", async () => {
    const { exec } = scripted({ snapshot: "fatal: oops" });
    expect(await snapshotWorkingTree(exec)).toBeNull();
  });
});
