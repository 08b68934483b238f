import { afterEach, describe, expect, it, vi } from "vitest";
import {
  commandOutput,
  type LiveCommandOutput,
  MAX_LINES,
  SEND_INTERVAL_MS,
  tailLines,
} from "./command-output";

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
