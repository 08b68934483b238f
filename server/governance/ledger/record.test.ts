import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateJsonSchema } from "@/testing/ledger/agent-trace-schema";
import {
  AGENT_TRACE_VERSION,
  AgentTraceRecord,
  arborMetadataOf,
  contentHash,
  type LedgerInput,
  ledgerRecords,
} from "./record";

const DIFF = [
  "diff --git a/src/a.ts b/src/a.ts",
  "--- a/src/a.ts",
  "+++ b/src/a.ts",
  "@@ -2 +2,2 @@",
  "-old",
  "+new one",
  "+new two",
  "@@ -9,0 +11 @@",
  "+tail",
  "diff --git a/gone.txt b/gone.txt",
  "deleted file mode 100644",
  "--- a/gone.txt",
  "+++ /dev/null",
  "@@ -1 +0,0 @@",
  "-bye",
  "diff --git a/logo.png b/logo.png",
  "new file mode 100644",
  "Binary files /dev/null and b/logo.png differ",
  "diff --git a/old.md b/new.md",
  "similarity index 100%",
  "rename from old.md",
  "rename to new.md",
  "",
].join("\n");

const BASE: LedgerInput = {
  diff: DIFF,
  revision: "0123456789abcdef0123456789abcdef01234567",
  sessionId: "s1",
  runId: "r1",
  intentionId: "i1",
  cycleId: "c1",
  modelId: "openai/gpt-4o-mini",
  approver: "Ada",
  checkResult: "SUCCESS",
  timestamp: "2026-11-22T06:00:00.000Z",
  baseline: "snapshot",
};

/** Both checks every produced record must pass: the spec's JSON Schema file and our zod mirror. */
function expectValid(record: unknown) {
  expect(validateJsonSchema(record)).toEqual([]);
  expect(AgentTraceRecord.safeParse(record).success).toBe(true);
}

describe("ledgerRecords", () => {
  it("builds one schema-valid record with hashed ranges for the files that gained lines", () => {
    const records = ledgerRecords(BASE);
    expect(records).toHaveLength(1);
    const record = records[0] as AgentTraceRecord;
    expectValid(record);
    expect(record).toMatchObject({
      version: AGENT_TRACE_VERSION,
      timestamp: BASE.timestamp,
      vcs: { type: "git", revision: BASE.revision },
      tool: { name: "arbor" },
    });
    expect(record.files).toEqual([
      {
        path: "src/a.ts",
        conversations: [
          {
            contributor: { type: "ai", model_id: "openai/gpt-4o-mini" },
            ranges: [
              { start_line: 2, end_line: 3, content_hash: contentHash(["new one", "new two"]) },
              { start_line: 11, end_line: 11, content_hash: contentHash(["tail"]) },
            ],
          },
        ],
      },
    ]);
  });

  it("keeps Arbor's own fields under metadata, including the files without ranges", () => {
    const [record] = ledgerRecords(BASE);
    expect(arborMetadataOf(record as AgentTraceRecord)).toEqual({
      session_id: "s1",
      run_id: "r1",
      intention_id: "i1",
      cycle_id: "c1",
      approver: "Ada",
      check_result: "SUCCESS",
      baseline: "snapshot",
      deleted_files: ["gone.txt"],
      binary_files: ["logo.png"],
      truncated_files: [],
      renamed_files: [{ from: "old.md", to: "new.md" }],
      author: null,
      omitted_files: 0,
    });
  });

  it("caps the files of one record and counts the rest", () => {
    const [record] = ledgerRecords({ ...BASE, maxFiles: 0 });
    expectValid(record);
    expect(record?.files).toEqual([]);
    expect(arborMetadataOf(record as AgentTraceRecord)?.omitted_files).toBe(1);
  });

  it("hashes the content as sha256 of the lines joined with newlines", () => {
    const hex = createHash("sha256").update("a\nb").digest("hex");
    expect(contentHash(["a", "b"])).toBe(`sha256:${hex}`);
    expect(contentHash(["a", "b"])).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("records nothing for a cycle that changed nothing", () => {
    expect(ledgerRecords({ ...BASE, diff: "" })).toEqual([]);
  });

  it("still records a cycle that only deleted files, with no files but the deletion in metadata", () => {
    const diff = "diff --git a/x b/x\ndeleted file mode 100644\n--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n";
    const [record] = ledgerRecords({ ...BASE, diff });
    expectValid(record);
    expect(record?.files).toEqual([]);
    expect(arborMetadataOf(record as AgentTraceRecord)?.deleted_files).toEqual(["x"]);
  });

  it("leaves out vcs before the first commit, and still validates", () => {
    const [record] = ledgerRecords({ ...BASE, revision: null });
    expect(record).not.toHaveProperty("vcs");
    expectValid(record);
  });

  it("attributes an editor write to a human, without a model id", () => {
    const [record] = ledgerRecords({ ...BASE, contributor: { type: "human", author: "ada@example.com" } });
    expectValid(record);
    expect(record?.files[0]?.conversations[0]?.contributor).toEqual({ type: "human" });
    expect(arborMetadataOf(record as AgentTraceRecord)?.author).toBe("ada@example.com");
  });

  it("caps an over-long model id at the schema's 250 characters", () => {
    const [record] = ledgerRecords({ ...BASE, modelId: "m".repeat(400) });
    expectValid(record);
  });

  it("uses the id generator it is given, and a v4 uuid otherwise", () => {
    expect(ledgerRecords({ ...BASE, newId: () => "00000000-0000-0000-0000-000000000000" })[0]?.id).toBe(
      "00000000-0000-0000-0000-000000000000",
    );
    expect(ledgerRecords(BASE)[0]?.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("produces valid records for any added content and positions", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            path: fc.stringMatching(/^[a-z][a-z0-9/._-]{0,20}$/),
            start: fc.integer({ min: 1, max: 10_000 }),
            lines: fc.array(fc.string(), { minLength: 1, maxLength: 5 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        (changes) => {
          const diff = changes
            .map(
              ({ path, start, lines }) =>
                `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -${start},0 +${start},${lines.length} @@\n${lines
                  .map((line) => `+${line.replaceAll("\n", " ")}`)
                  .join("\n")}\n`,
            )
            .join("");
          const [record] = ledgerRecords({ ...BASE, diff });
          expect(validateJsonSchema(record)).toEqual([]);
          expect(AgentTraceRecord.safeParse(record).success).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("the zod mirror and the schema file agree on what is invalid", () => {
  const [valid] = ledgerRecords(BASE);
  const broken: Record<string, unknown> = {
    "a three-part version": { ...valid, version: "0.1.0" },
    "a timestamp with an offset": { ...valid, timestamp: "2026-11-22T06:00:00+01:00" },
    "an id that is not a uuid": { ...valid, id: "abc" },
    "an unknown top-level key": { ...valid, intent_id: "i1" },
    "a missing files array": { ...valid, files: undefined },
    "a line number of 0": {
      ...valid,
      files: [{ path: "x", conversations: [{ ranges: [{ start_line: 0, end_line: 1 }] }] }],
    },
    "an unknown contributor type": {
      ...valid,
      files: [{ path: "x", conversations: [{ contributor: { type: "bot" }, ranges: [] }] }],
    },
    "an unknown vcs": { ...valid, vcs: { type: "cvs", revision: "1" } },
  };
  for (const [name, record] of Object.entries(broken)) {
    it(`rejects ${name}`, () => {
      const clean = JSON.parse(JSON.stringify(record));
      expect(validateJsonSchema(clean)).not.toEqual([]);
      expect(AgentTraceRecord.safeParse(clean).success).toBe(false);
    });
  }

  it("accepts the spec's minimal example once its version matches the schema file", () => {
    const minimal = {
      version: "0.1",
      id: "550e8400-e29b-41d4-a716-446655440000",
      timestamp: "2026-01-25T10:00:00Z",
      files: [
        {
          path: "src/app.ts",
          conversations: [{ contributor: { type: "ai" }, ranges: [{ start_line: 1, end_line: 50 }] }],
        },
      ],
    };
    expectValid(minimal);
  });
});
