import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { MemoryEventLog } from "@/server/events/log";
import { decomposedRun } from "@/testing/events/events";
import { restoreContextItem } from "./context-restore";

const actor = { userId: "u1", name: "Ada" };
const compressed: EventInput = {
  type: "context-compressed",
  runId: "run-1",
  intentionId: "c2",
  stage: "act",
  triggers: ["history_cap"],
  omitted: 0,
  shortened: 0,
  collapsed: 1,
  keptChars: 500,
  dropped: [
    {
      item: "finished_subtree",
      id: "c1",
      how: "collapsed",
      sha256: "c".repeat(64),
      chars: 90,
      label: "✓ run `a`",
    },
  ],
};

async function logWith(...extra: EventInput[]) {
  const log = new MemoryEventLog();
  await log.append("s1", [...decomposedRun(), compressed, ...extra]);
  return log;
}

const restore = (log: MemoryEventLog, itemId: string, intentionId = "c2") =>
  restoreContextItem(log, { sessionId: "s1", runId: "run-1", intentionId, itemId, actor });

describe("restoreContextItem", () => {
  it("appends one context-restored event with the item's recorded kind, hash and label", async () => {
    const log = await logWith();
    expect(await restore(log, "c1")).toEqual({ restored: true });
    const last = (await log.read("s1")).at(-1)?.body;
    expect(last).toEqual({
      type: "context-restored",
      runId: "run-1",
      intentionId: "c2",
      restored: { item: "finished_subtree", id: "c1", sha256: "c".repeat(64), label: "✓ run `a`" },
      restoredBy: actor,
    });
  });

  it("refuses an item the latest compression did not list, an unknown intention and an ended run", async () => {
    const log = await logWith();
    await expect(restore(log, "cy9")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(restore(log, "c1", "nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
    const ended = await logWith({ type: "run-ended", runId: "run-1", status: "STOPPED", reason: "stopped" });
    await expect(restore(ended, "c1")).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await ended.read("s1")).some((event) => event.body.type === "context-restored")).toBe(false);
  });
});
