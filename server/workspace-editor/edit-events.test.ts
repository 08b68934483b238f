import { describe, expect, it } from "vitest";
import { EventBody } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { recordsFromEvents } from "@/server/governance/ledger/export";
import { ledgerRecords } from "@/server/governance/ledger/record";
import { decomposedRun, sequence } from "@/testing/events/events";

/** A person's save in the log: `file-edited`, then its trace records with no run or intention. */
const records = ledgerRecords({
  diff: "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,0 +2,1 @@\n+mine\n",
  revision: null,
  sessionId: "s1",
  runId: null,
  intentionId: null,
  cycleId: "edit-1",
  contributor: { type: "human", author: "Ada" },
  approver: "Ada",
  checkResult: null,
  timestamp: "2026-11-23T20:00:00.000Z",
});
const edited = {
  type: "file-edited",
  editId: "edit-1",
  path: "a.txt",
  by: { userId: "u1", name: "Ada" },
  baseHash: "sha256:1",
  hash: "sha256:2",
  bytes: 10,
  confirmed: null,
} as const;
const traced = {
  type: "trace-recorded",
  runId: null,
  intentionId: null,
  cycleId: "edit-1",
  records,
} as const;

describe("a person's edit in the event log", () => {
  it("parses as events of the one union", () => {
    expect(EventBody.parse(edited)).toEqual(edited);
    expect(EventBody.parse(traced)).toEqual(traced);
    expect(EventBody.safeParse({ ...edited, by: "Ada" }).success).toBe(false);
  });

  it("leaves the session's tree as it was, and its lines reach the export as human", () => {
    const before = foldEvents(sequence(decomposedRun()));
    const after = foldEvents(sequence([...decomposedRun(), edited, traced]));
    expect(after.intentions).toEqual(before.intentions);
    expect(after.runs).toEqual(before.runs);
    const exported = recordsFromEvents(sequence([edited, traced]));
    expect(exported).toHaveLength(1);
    expect(exported[0]?.files[0]?.conversations[0]?.contributor).toEqual({ type: "human" });
  });
});
