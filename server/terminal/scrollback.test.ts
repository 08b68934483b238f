import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SCROLLBACK_CHARS, Scrollback } from "./scrollback";

describe("Scrollback", () => {
  it("keeps everything while under capacity and gives what came after an offset", () => {
    const buffer = new Scrollback(100);
    expect(buffer.append("hello ")).toBe(6);
    expect(buffer.append("world")).toBe(11);
    expect(buffer.snapshot()).toBe("hello world");
    expect(buffer.since(6)).toBe("world");
    expect(buffer.since(11)).toBe("");
    expect(buffer.since(0)).toBe("hello world");
  });

  it("refuses offsets it cannot answer: ahead of the end, negative or fractional", () => {
    const buffer = new Scrollback(100);
    buffer.append("abc");
    expect(buffer.since(4)).toBeNull();
    expect(buffer.since(-1)).toBeNull();
    expect(buffer.since(1.5)).toBeNull();
  });

  it("drops the oldest output past its capacity and says so for offsets before the start", () => {
    const buffer = new Scrollback(16);
    buffer.append("0123456789");
    buffer.append("abcdefghij");
    expect(buffer.end).toBe(20);
    expect(buffer.start).toBe(4);
    expect(buffer.snapshot()).toBe("456789abcdefghij");
    expect(buffer.since(3)).toBeNull();
    expect(buffer.since(10)).toBe("abcdefghij");
  });

  it("starts the retained screen at a line boundary when it cuts inside a line", () => {
    const buffer = new Scrollback(16);
    buffer.append("first line\nsecond\nthird line\n");
    expect(buffer.snapshot()).toBe("third line\n");
    expect(buffer.start).toBe(18);
  });

  it("never splits a surrogate pair when it cuts", () => {
    const buffer = new Scrollback(3);
    buffer.append("ab😀cd");
    // Cutting at 3 would land inside 😀 (2 code units at 2..3); the cut moves past it.
    expect(buffer.snapshot()).toBe("cd");
    expect(buffer.start).toBe(4);
  });

  it("keeps the default of 256 Ki characters under a flood", () => {
    const buffer = new Scrollback();
    const line = `${"y".repeat(79)}\n`;
    for (let i = 0; i < 10_000; i++) buffer.append(line);
    expect(buffer.end).toBe(800_000);
    expect(buffer.snapshot().length).toBeGreaterThanOrEqual(DEFAULT_SCROLLBACK_CHARS - line.length);
    expect(buffer.snapshot().length).toBeLessThanOrEqual(buffer.maxRetained);
    expect(buffer.snapshot().startsWith("y")).toBe(true);
  });

  it("rejects a capacity that is not a positive integer", () => {
    expect(() => new Scrollback(0)).toThrow(RangeError);
    expect(() => new Scrollback(1.5)).toThrow(RangeError);
  });

  it("always answers since(offset) with exactly the tail of everything appended, or null", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 40 }),
        fc.nat(),
        (capacity, pieces, probe) => {
          const buffer = new Scrollback(capacity);
          let all = "";
          for (const piece of pieces) {
            all += piece;
            expect(buffer.append(piece)).toBe(all.length);
          }
          expect(buffer.snapshot()).toBe(all.slice(buffer.start));
          expect(buffer.snapshot().length).toBeLessThanOrEqual(buffer.maxRetained);
          const offset = all.length === 0 ? 0 : probe % (all.length + 1);
          const tail = buffer.since(offset);
          if (offset >= buffer.start) expect(tail).toBe(all.slice(offset));
          else expect(tail).toBeNull();
        },
      ),
    );
  });
});
