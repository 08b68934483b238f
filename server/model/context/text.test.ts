import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/server/domain/text/canonical-json";
import { capEnd } from "@/server/domain/text/cap";
import { flatten, sha256Of, squeeze } from "./text";

describe("text helpers", () => {
  it("caps and squeezes to the exact length", () => {
    expect(capEnd("abcdef", 4)).toBe("abc…");
    expect(capEnd("abc", 4)).toBe("abc");
    expect(capEnd("abc", 0)).toBe("");
    const squeezed = squeeze(`start ${"x".repeat(500)} the error`, 60);
    expect(squeezed).toHaveLength(60);
    expect(squeezed.startsWith("start ")).toBe(true);
    expect(squeezed.endsWith("the error")).toBe(true);
    expect(flatten(" a\n\n b\tc ")).toBe("a b c");
  });

  it("hashes equal values equally whatever their key order", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
    expect(sha256Of({ a: 1, b: 2 })).toBe(sha256Of({ b: 2, a: 1 }));
    expect(sha256Of("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
