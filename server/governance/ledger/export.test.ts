import { describe, expect, it } from "vitest";
import { validateJsonSchema } from "@/testing/ledger/agent-trace-schema";
import { intentMap, parseJsonl, recordsFromEvents, toJsonl, withEvidence } from "./export";
import { type AgentTraceRecord, ledgerRecords } from "./record";

function recordFor(intentionId: string, cycleId: string, diff: string): AgentTraceRecord {
  const [record] = ledgerRecords({
    diff,
    revision: "0123456789abcdef0123456789abcdef01234567",
    sessionId: "s1",
    runId: "r1",
    intentionId,
    cycleId,
    modelId: "offline",
    approver: null,
    checkResult: "SUCCESS",
    timestamp: "2026-11-22T06:00:00.000Z",
  });
  if (!record) throw new Error("no record");
  return record;
}

const added = (path: string, lines: number) =>
  `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines} @@\n${"+x\n".repeat(lines)}`;
const deleted = (path: string) =>
  `diff --git a/${path} b/${path}\ndeleted file mode 100644\n--- a/${path}\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n`;

const first = recordFor("i1", "c1", added("src/a.ts", 3) + added("README.md", 1));
const second = recordFor("i1", "c2", added("src/b.ts", 2) + deleted("old.txt"));
const third = recordFor("i2", "c3", added("src/a.ts", 1));

describe("recordsFromEvents", () => {
  it("picks the records of trace-recorded events in log order and skips everything else", () => {
    const events = [
      { seq: 1, at: "t", body: { type: "run-started", runId: "r1" } },
      {
        seq: 2,
        at: "t",
        body: { type: "trace-recorded", runId: "r1", intentionId: "i1", cycleId: "c1", records: [first] },
      },
      {
        seq: 3,
        at: "t",
        body: {
          type: "trace-recorded",
          runId: "r1",
          intentionId: "i1",
          cycleId: "c2",
          records: [{ bad: true }],
        },
      },
      {
        seq: 4,
        at: "t",
        body: {
          type: "trace-recorded",
          runId: "r1",
          intentionId: "i2",
          cycleId: "c3",
          records: [second, third],
        },
      },
      { seq: 5, at: "t", body: null },
    ];
    expect(recordsFromEvents(events)).toEqual([first, second, third]);
  });
});

describe("withEvidence", () => {
  it("adds the kind each record's intention was verified on, null when it was not, and stays schema-valid", () => {
    const foreign: AgentTraceRecord = {
      ...third,
      id: "00000000-0000-0000-0000-000000000000",
      metadata: { "other.tool": { a: 1 } },
    };
    const out = withEvidence([first, third, foreign], {
      i1: { status: "VERIFIED", evidence: "accepted-by-person", acceptedBy: "Ada" },
      i2: { status: "FAILED" },
    });
    expect(out.map((record) => record.metadata?.["dev.arbor"])).toEqual([
      expect.objectContaining({ intention_id: "i1", evidence: "accepted-by-person", accepted_by: "Ada" }),
      expect.objectContaining({ intention_id: "i2", evidence: null, accepted_by: null }),
      undefined,
    ]);
    expect(out[2]).toBe(foreign);
    for (const line of toJsonl(out).trim().split("\n"))
      expect(validateJsonSchema(JSON.parse(line))).toEqual([]);
    const red = withEvidence([second], { i1: { status: "VERIFIED", evidence: "red-to-green" } });
    expect(red[0]?.metadata?.["dev.arbor"]).toMatchObject({ evidence: "red-to-green", accepted_by: null });
  });
});

describe("toJsonl / parseJsonl", () => {
  it("writes one schema-valid record per line and reads them back", () => {
    const jsonl = toJsonl([first, second, third]);
    const lines = jsonl.split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    for (const line of lines.slice(0, 3)) expect(validateJsonSchema(JSON.parse(line))).toEqual([]);
    expect(parseJsonl(jsonl)).toEqual({ ok: true, records: [first, second, third] });
  });

  it("is empty for no records", () => {
    expect(toJsonl([])).toBe("");
    expect(parseJsonl("")).toEqual({ ok: true, records: [] });
  });

  it("names the line that is not a record", () => {
    const result = parseJsonl(`${toJsonl([first])}{"version":"1"}\n`);
    expect(result).toMatchObject({ ok: false, line: 2 });
    expect(parseJsonl("nope")).toMatchObject({ ok: false, line: 1 });
  });
});

describe("intentMap", () => {
  it("lists per intention the files it wrote and deleted, with line, range and cycle counts", () => {
    const map = intentMap([first, second, third], {
      title: "Intent map — demo",
      intentionTitles: { i1: "Add the parser", i2: "Fix | pipes" },
    });
    expect(map).toBe(
      [
        "# Intent map — demo",
        "",
        "## i1 — Add the parser",
        "",
        "| file | lines written | ranges | cycles |",
        "| --- | ---: | ---: | ---: |",
        "| `README.md` | 1 | 1 | 1 |",
        "| `old.txt` (deleted) | 0 | 0 | 1 |",
        "| `src/a.ts` | 3 | 1 | 1 |",
        "| `src/b.ts` | 2 | 1 | 1 |",
        "",
        "## i2 — Fix \\| pipes",
        "",
        "| file | lines written | ranges | cycles |",
        "| --- | ---: | ---: | ---: |",
        "| `src/a.ts` | 1 | 1 | 1 |",
        "",
      ].join("\n"),
    );
  });

  it("says so when nothing was recorded, and groups foreign records as unattributed", () => {
    expect(intentMap([])).toBe("# Intent map\n\nNo file changes recorded.\n");
    const foreign = { ...first, metadata: {} };
    expect(intentMap([foreign])).toContain("## Unattributed");
  });
});
