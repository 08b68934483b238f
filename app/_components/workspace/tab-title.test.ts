import { describe, expect, it } from "vitest";
import { sessionTabTitle } from "./tab-title";

describe("sessionTabTitle", () => {
  it("puts waiting approvals first, then work in progress", () => {
    expect(sessionTabTitle("Fix the test", 2, true)).toBe("(2) ⏳ Fix the test · Arbor");
    expect(sessionTabTitle("Fix the test", 0, true)).toBe("▶ Fix the test · Arbor");
    expect(sessionTabTitle("Fix the test", 0, false)).toBe("Fix the test · Arbor");
  });
});
