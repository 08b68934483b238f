import { describe, expect, it } from "vitest";
import { capEnd, capEndCounted, capLine, keepHeadAndTail, keepTail } from "./cap";

describe("capEnd", () => {
  it("keeps the start and ends with … when cut, never longer than max", () => {
    expect(capEnd("abcdef", 4)).toBe("abc…");
    expect(capEnd("abc", 4)).toBe("abc");
    expect(capEnd("abc", 0)).toBe("");
  });
});

describe("capLine", () => {
  it("collapses whitespace before capping", () => {
    expect(capLine("  a\n\tb  c ", 60)).toBe("a b c");
    expect(capLine("one two three", 8)).toBe("one two…");
  });
});

describe("capEndCounted", () => {
  it("says how many characters were cut", () => {
    expect(capEndCounted("abcdefghij", 4)).toBe("abcd… (6 more characters)");
    expect(capEndCounted("abc", 4)).toBe("abc");
  });
});

describe("keepTail", () => {
  it("keeps the end, marked with a leading …", () => {
    expect(keepTail("abcdef", 3)).toBe("…def");
    expect(keepTail("abc", 3)).toBe("abc");
  });
});

describe("keepHeadAndTail", () => {
  it("never exceeds the cap and leaves short text alone", () => {
    expect(keepHeadAndTail("short", 10)).toBe("short");
    for (const length of [11, 100, 2_001, 123_456]) {
      for (const max of [5, 40, 2_000]) {
        expect(keepHeadAndTail("y".repeat(length), max).length).toBeLessThanOrEqual(max);
      }
    }
  });

  it("keeps both ends and says how much it left out", () => {
    const kept = keepHeadAndTail(`start${"x".repeat(500)}end`, 100);
    expect(kept.startsWith("start")).toBe(true);
    expect(kept.endsWith("end")).toBe(true);
    expect(kept).toMatch(/…\[\d+ characters omitted\]…/);
  });
});
