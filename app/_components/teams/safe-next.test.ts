import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next";

describe("safeNext", () => {
  it("keeps a path of this site", () => {
    expect(safeNext("/invite/abc")).toBe("/invite/abc");
  });
  it("refuses other origins and missing values", () => {
    for (const next of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "",
      null,
      undefined,
    ])
      expect(safeNext(next)).toBe("/projects");
  });
});
