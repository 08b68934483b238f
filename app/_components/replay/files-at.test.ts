import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { sequence } from "@/testing/events/events";
import { filesAt, parsePatch } from "./files-at";

const changed = (cycleId: string, patch: string): EventInput => ({
  type: "workspace-changed",
  runId: "r",
  intentionId: "i",
  cycleId,
  base: "b",
  files: [],
  patch,
  truncated: false,
});
const message: EventInput = { type: "message-posted", messageId: "m", runId: null, role: "user", text: "hi" };

describe("files at a point of the replay", () => {
  const events = sequence([message, changed("c1", "one"), message, changed("c2", "two"), message]);

  it("is the newest change before the position, or nothing before the first", () => {
    expect(filesAt(events, 0)).toBeNull();
    expect(filesAt(events, 1)).toBeNull();
    expect(filesAt(events, 2)?.cycleId).toBe("c1");
    expect(filesAt(events, 3)?.cycleId).toBe("c1");
    expect(filesAt(events, 4)?.cycleId).toBe("c2");
    expect(filesAt(events, 99)?.cycleId).toBe("c2");
  });

  it("splits a patch per file and classifies its lines", () => {
    const patch =
      "diff --git a/x.txt b/x.txt\nnew file mode 100644\n--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n" +
      "diff --git a/y.txt b/y.txt\n--- a/y.txt\n+++ b/y.txt\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n";
    const files = parsePatch(patch);
    expect(files.map((f) => f.path)).toEqual(["x.txt", "y.txt"]);
    expect(files[0]?.lines.map((l) => l.kind)).toEqual(["meta", "meta", "meta", "hunk", "add", "add"]);
    expect(files[1]?.lines.map((l) => l.kind)).toEqual(["meta", "meta", "hunk", "context", "remove", "add"]);
  });
});
