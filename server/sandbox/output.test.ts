import { describe, expect, it } from "vitest";
import { CappedOutput, truncationMarker, utf8SafeEnd, utf8SafeStart } from "./output";

function capture(max: number, ...chunks: string[]): CappedOutput {
  const out = new CappedOutput(max);
  for (const chunk of chunks) out.push(Buffer.from(chunk, "utf8"));
  return out;
}

describe("CappedOutput", () => {
  it("keeps everything under the cap, across chunks", () => {
    const out = capture(100, "hello ", "world\n");
    expect(out.toString()).toBe("hello world\n");
    expect(out.truncated).toBe(false);
    expect(out.totalBytes).toBe(12);
  });

  it("keeps exactly the cap without truncating", () => {
    const out = capture(10, "0123456789");
    expect(out.truncated).toBe(false);
    expect(out.toString()).toBe("0123456789");
  });

  it("keeps head and tail around a marker naming the dropped bytes", () => {
    const out = capture(10, "HEAD-", "x".repeat(1000), "-TAIL");
    expect(out.truncated).toBe(true);
    expect(out.toString()).toBe(`HEAD-${truncationMarker(1000)}-TAIL`);
  });

  it("keeps the latest tail over many small chunks", () => {
    const out = new CappedOutput(8);
    for (let i = 0; i < 10_000; i++) out.push(Buffer.from(String(i % 10)));
    expect(out.toString()).toBe(`0123${truncationMarker(10_000 - 8)}6789`);
  });

  it("never cuts a multi-byte character in half", () => {
    // "é" is 2 bytes, "✓" 3: the cut points fall inside them.
    const out = capture(6, "aé✓", "-".repeat(50), "✓é");
    const text = out.toString();
    expect(text).not.toContain("\uFFFD");
    expect(text.startsWith("aé")).toBe(true);
    expect(text.endsWith("é")).toBe(true);
    const dropped = Number(/\[(\d+) bytes truncated\]/.exec(text)?.[1]);
    expect(dropped + Buffer.byteLength(text.replace(/\n…\[\d+ bytes truncated\]…\n/, ""))).toBe(
      out.totalBytes,
    );
  });

  it("with a zero cap keeps only the marker", () => {
    expect(capture(0, "abc").toString()).toBe(truncationMarker(3));
  });

  it("rejects a negative cap", () => {
    expect(() => new CappedOutput(-1)).toThrow(RangeError);
  });
});

describe("utf8 boundaries", () => {
  it("finds the end of the last complete character", () => {
    const check = Buffer.from("a✓", "utf8"); // 1 + 3 bytes
    expect(utf8SafeEnd(check)).toBe(4);
    expect(utf8SafeEnd(check.subarray(0, 3))).toBe(1);
    expect(utf8SafeEnd(check.subarray(0, 2))).toBe(1);
    expect(utf8SafeEnd(Buffer.alloc(0))).toBe(0);
  });

  it("skips orphaned continuation bytes at the start", () => {
    const check = Buffer.from("✓a", "utf8");
    expect(utf8SafeStart(check)).toBe(0);
    expect(utf8SafeStart(check.subarray(1))).toBe(2);
  });
});
