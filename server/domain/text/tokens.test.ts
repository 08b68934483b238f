import { describe, expect, it } from "vitest";
import { estimateTokens } from "./tokens";

describe("estimateTokens", () => {
  it("counts four characters per token, rounding up", () => {
    expect([
      estimateTokens(""),
      estimateTokens("abc"),
      estimateTokens("abcd"),
      estimateTokens("abcde"),
    ]).toEqual([0, 1, 1, 2]);
  });
});
