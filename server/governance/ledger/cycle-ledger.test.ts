import { describe, expect, it, vi } from "vitest";
import { arborMetadataOf } from "@/server/domain/events/trace-schema";
import { validateJsonSchema } from "@/testing/ledger/agent-trace-schema";
import type { LedgerExec } from "./collect";
import { CycleLedger } from "./cycle-ledger";

const BEFORE = "a".repeat(40);
const AFTER = "b".repeat(40);
const ids = { runId: "r", intentionId: "i", cycleId: "c" };

function sandbox(diff: string): LedgerExec {
  let snapshots = 0;
  return async (command) => {
    if (command.includes("write-tree")) return { exitCode: 0, stdout: snapshots++ === 0 ? BEFORE : AFTER };
    if (command.startsWith("git rev-parse")) return { exitCode: 0, stdout: "c".repeat(40) };
    if (command.includes("--unified=0")) return { exitCode: 0, stdout: diff };
    return { exitCode: 1, stdout: "" };
  };
}

const DIFF =
  "diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+n\n";

describe("CycleLedger", () => {
  it("turns a cycle's changes into a trace-recorded event carrying the judgment and approver", async () => {
    const ledger = new CycleLedger(sandbox(DIFF), { sessionId: "s", modelId: "openai/gpt-4o-mini" });
    const mark = await ledger.begin();
    expect(mark).toEqual({ before: BEFORE });
    const written = await ledger.afterAction(mark, ids);
    expect(arborMetadataOf(written[0] as never)).toMatchObject({ check_result: null, approver: null });
    const event = ledger.judged(written, ids, "PARTIAL", "Ada");
    expect(event).toMatchObject({ type: "trace-recorded", ...ids });
    expect(event?.records).toHaveLength(1);
    const record = event?.records[0];
    expect(validateJsonSchema(record)).toEqual([]);
    expect(arborMetadataOf(record as never)).toMatchObject({
      session_id: "s",
      run_id: "r",
      intention_id: "i",
      cycle_id: "c",
      check_result: "PARTIAL",
      approver: "Ada",
      baseline: "snapshot",
    });
    expect(record?.files[0]?.conversations[0]?.contributor).toEqual({
      type: "ai",
      model_id: "openai/gpt-4o-mini",
    });
  });

  it("gives no event for a cycle that changed nothing or was judged UNCLEAR", async () => {
    const quiet = new CycleLedger(sandbox(""), { sessionId: "s", modelId: "m" });
    expect(quiet.judged(await quiet.afterAction(await quiet.begin(), ids), ids, "SUCCESS", null)).toBeNull();
    const busy = new CycleLedger(sandbox(DIFF), { sessionId: "s", modelId: "m" });
    const written = await busy.afterAction(await busy.begin(), ids);
    expect(busy.judged(written, ids, "UNCLEAR", null)).toBeNull();
    expect(busy.judged(written, ids, "FAILURE", null)).not.toBeNull();
  });

  it("logs a sandbox failure and records nothing, without throwing", async () => {
    const warn = vi.fn();
    const ledger = new CycleLedger(
      async () => {
        throw new Error("container gone");
      },
      { sessionId: "s", modelId: "m", logger: { warn } },
    );
    const mark = await ledger.begin();
    expect(mark).toEqual({ before: null });
    expect(await ledger.afterAction(mark, ids)).toEqual([]);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ cycleId: "c" }),
      "trace ledger could not collect",
    );
  });
});
