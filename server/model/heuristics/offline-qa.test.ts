import { describe, expect, it } from "vitest";
import type { QaInput, ReadPort } from "../types";
import { addedLines, offlineReviewDiff, reviewOffline } from "./offline-qa";

const input = (overrides: Partial<QaInput> = {}): QaInput => ({
  task: "make it work",
  what: "run `npm test`",
  acceptance: "the command `npm test` exits 0",
  outcome: "VERIFIED: exit code 0",
  work: ["COMMAND npm test → SUCCESS: exit code 0"],
  attempts: { total: 1, missed: 0 },
  criteria: { total: 1, passed: 1 },
  ...overrides,
});

const DIFF = [
  "diff --git a/src/a.ts b/src/a.ts",
  "--- a/src/a.ts",
  "+++ b/src/a.ts",
  "@@ -1 +1,3 @@",
  "-old",
  "+export const a = 1; // TODO: real value",
  '+console.log("here");',
].join("\n");

describe("the offline model's advisory review", () => {
  it("passes clean verified work", () => {
    expect(reviewOffline(input(), "")).toMatchObject({ verdict: "pass", findings: [] });
  });

  it("fails an intention that did not verify, with a high finding", () => {
    const report = reviewOffline(input({ outcome: "FAILED: exit code 2" }), "");
    expect(report.verdict).toBe("fail");
    expect(report.findings[0]).toMatchObject({
      severity: "high",
      message: expect.stringContaining("exit code 2"),
    });
  });

  it("flags markers left in added lines, once per file and kind, with the file", () => {
    const report = reviewOffline(input(), `${DIFF}\n+// TODO again`);
    expect(report.verdict).toBe("concerns");
    expect(report.findings.map((finding) => [finding.severity, finding.file, finding.message])).toEqual([
      ["low", "src/a.ts", "an added line leaves a TODO/FIXME marker"],
      ["low", "src/a.ts", "an added line looks like a debug print"],
    ]);
  });

  it("notes an acceptance nothing checked, and contract criteria that did not pass", () => {
    expect(reviewOffline(input({ criteria: { total: 0, passed: 0 } }), "").findings[0]).toMatchObject({
      severity: "info",
    });
    const gap = reviewOffline(input({ criteria: { total: 2, passed: 1 } }), "");
    expect(gap).toMatchObject({
      verdict: "concerns",
      findings: [expect.objectContaining({ severity: "medium" })],
    });
  });

  it("reads only added lines of the diff, by file", () => {
    expect(addedLines(DIFF)).toEqual([
      { file: "src/a.ts", line: "export const a = 1; // TODO: real value" },
      { file: "src/a.ts", line: 'console.log("here");' },
    ]);
  });

  it("reads the diff and new files through the read port, and nothing else", async () => {
    const calls: string[] = [];
    const reads: ReadPort = {
      maxReads: 8,
      async run(call) {
        calls.push(call.tool);
        if (call.tool === "git.diff") return "(no unstaged changes)";
        if (call.tool === "git.status") return "## main\n?? notes.txt\n?? dir/";
        return "     1\tFIXME later";
      },
    };
    const diff = await offlineReviewDiff(reads);
    expect(calls).toEqual(["git.diff", "git.status", "fs.read"]);
    expect(reviewOffline(input(), diff).findings).toEqual([
      expect.objectContaining({ file: "notes.txt", message: "an added line leaves a TODO/FIXME marker" }),
    ]);
  });
});
