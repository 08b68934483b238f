import { afterEach, describe, expect, it, vi } from "vitest";
import type { LiveCommandOutput } from "@/server/domain/session/live-output";
import { commandOutput, MAX_LINES, SEND_INTERVAL_MS, tailLines } from "./command-output";
import { rememberOpenedKey } from "./opened-keys";

const ids = { runId: "r", intentionId: "i", cycleId: "c1" };

describe("tailLines", () => {
  it("keeps the last lines, a trailing newline included", () => {
    expect(tailLines("a\nb\nc\n", 2)).toBe("b\nc\n");
    expect(tailLines("a\nb\nc", 2)).toBe("b\nc");
    expect(tailLines("a\nb", 5)).toBe("a\nb");
    expect(tailLines("0123456789", 5, 4)).toBe("6789");
    // Fewer lines than the cap: nothing is dropped, a leading empty line included.
    expect(tailLines("\n> npm test\nok\n")).toBe("\n> npm test\nok\n");
    expect(tailLines("\nx\n", 1)).toBe("x\n");
  });

  it("caps a long run of output to MAX_LINES", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join("");
    const tail = tailLines(text);
    expect(tail.split("\n").filter(Boolean)).toHaveLength(MAX_LINES);
    expect(tail.startsWith(`line ${1000 - MAX_LINES}\n`)).toBe(true);
  });
});

describe("the live command output hub", () => {
  afterEach(() => {
    vi.useRealTimers();
    commandOutput.finish(ids.cycleId);
  });

  it("sends the first chunk at once, then at most one update per interval, and a done at the end", () => {
    vi.useFakeTimers();
    const seen: LiveCommandOutput[] = [];
    const stop = commandOutput.subscribe("s1", (output) => seen.push(output));
    const now = Date.now();
    commandOutput.append("s1", ids, "one\n", now);
    expect(seen.map((o) => o.text)).toEqual(["one\n"]);
    commandOutput.append("s1", ids, "two\n", now + 10);
    commandOutput.append("s1", ids, "three\n", now + 20);
    expect(seen).toHaveLength(1);
    vi.advanceTimersByTime(SEND_INTERVAL_MS);
    expect(seen.map((o) => o.text)).toEqual(["one\n", "one\ntwo\nthree\n"]);
    expect(seen[1]?.totalChars).toBe(14);
    // Another session hears nothing, and a late reader gets the tail so far.
    expect(commandOutput.snapshot("s2")).toEqual([]);
    expect(commandOutput.snapshot("s1")[0]?.text).toBe("one\ntwo\nthree\n");
    commandOutput.finish(ids.cycleId);
    expect(seen.at(-1)).toMatchObject({ cycleId: "c1", done: true, text: "" });
    expect(commandOutput.snapshot("s1")).toEqual([]);
    stop();
  });
});

describe("secrets in live output", () => {
  it("redacts a key opened from settings, even one split across chunks", () => {
    rememberOpenedKey("setup-secret-value-42");
    const heard: LiveCommandOutput[] = [];
    const stop = commandOutput.subscribe("s-redact", (output) => heard.push(output));
    try {
      const cycle = { ...ids, cycleId: "c-redact" };
      commandOutput.append("s-redact", cycle, "token: setup-secret", 1_000_000);
      commandOutput.append("s-redact", cycle, "-value-42\n", 1_000_000 + SEND_INTERVAL_MS);
      // The secret's start alone is held back too: its end may come in the next chunk.
      expect(heard.map((output) => output.text)).toEqual(["token: [redacted]", "token: [redacted]\n"]);
      expect(commandOutput.snapshot("s-redact")[0]?.text).toBe("token: [redacted]\n");
      expect(JSON.stringify(heard)).not.toContain("value-42");
      commandOutput.finish("c-redact");
    } finally {
      stop();
    }
  });
});
