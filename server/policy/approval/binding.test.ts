import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/server/domain/text/canonical-json";
import { approvalBinding, verifyBinding } from "./binding";

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined properties", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it.each([
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["a bigint", 1n],
    ["a function", () => 1],
    ["a Date", new Date(0)],
    ["a Map", new Map()],
    ["undefined", undefined],
    ["undefined in an array", [undefined]],
  ])("refuses %s", (_, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });

  it("refuses cycles but accepts the same object twice", () => {
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });

  it("agrees with JSON.parse on arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe("approvalBinding / verifyBinding", () => {
  const input = { command: "npm test", cwd: "/workspace" };

  it("is a versioned sha256 that ignores key order", () => {
    const binding = approvalBinding("shell.exec", input);
    expect(binding).toMatch(/^v2:sha256:[0-9a-f]{64}$/);
    expect(approvalBinding("shell.exec", { cwd: "/workspace", command: "npm test" })).toBe(binding);
  });

  it("verifies exactly what was approved and nothing else", () => {
    const binding = approvalBinding("shell.exec", input);
    expect(verifyBinding(binding, "shell.exec", input)).toBe(true);
    expect(verifyBinding(binding, "shell.exec", { ...input, command: "npm test " })).toBe(false);
    expect(verifyBinding(binding, "fs.write", input)).toBe(false);
    expect(verifyBinding(binding, "shell.exec", { ...input, extra: true })).toBe(false);
    expect(verifyBinding(binding.toUpperCase(), "shell.exec", input)).toBe(false);
    expect(verifyBinding("", "shell.exec", input)).toBe(false);
  });

  it("does not verify input that cannot be bound", () => {
    expect(verifyBinding(approvalBinding("x", {}), "x", { n: Number.NaN })).toBe(false);
  });

  it("changes whenever the input changes", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const same = canonicalJson(a) === canonicalJson(b);
        expect(approvalBinding("t", a) === approvalBinding("t", b)).toBe(same);
      }),
    );
  });

  it("still verifies a binding of the first version (no version prefix), as pending approvals store it", () => {
    // Made by the first version: sha256 over canonicalJson, prefix `sha256:` (vector computed then).
    const old = `sha256:${createHash("sha256").update('{"input":{"command":"npm test","cwd":"/workspace"},"tool":"shell.exec"}').digest("hex")}`;
    expect(verifyBinding(old, "shell.exec", input)).toBe(true);
    expect(verifyBinding(old, "shell.exec", { ...input, command: "npm test " })).toBe(false);
    expect(verifyBinding(`v9:${old}`, "shell.exec", input)).toBe(false);
  });

  it("hashes RFC 8785's form, which is canonicalJson's for every JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalize(value)).toBe(canonicalJson(value));
      }),
    );
  });

  it("refuses a lone surrogate, which RFC 8785 cannot encode", () => {
    expect(() => approvalBinding("fs.write", { content: "\ud800" })).toThrow(TypeError);
    expect(verifyBinding(approvalBinding("x", {}), "fs.write", { content: "\ud800" })).toBe(false);
  });
});
