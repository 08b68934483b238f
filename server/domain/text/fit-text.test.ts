import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitText, MAX_STEP_CHARS } from "./fit-text";

describe("fitText", () => {
  it("leaves text that fits unchanged", () => {
    expect(fitText("x".repeat(MAX_STEP_CHARS), MAX_STEP_CHARS)).toBe("x".repeat(MAX_STEP_CHARS));
  });

  it("summarises text one character over the cap: the head and how much was left out", () => {
    const long = `TypeError: boom\n${"y".repeat(MAX_STEP_CHARS)}`;
    const fitted = fitText(long, MAX_STEP_CHARS);
    expect(fitted.length).toBeLessThanOrEqual(MAX_STEP_CHARS);
    expect(fitted.startsWith("TypeError: boom\n")).toBe(true);
    expect(fitted).toMatch(
      /… \[\d[\d,]* more characters left out; the full text is kept in the run's task\]$/,
    );
    const left = Number(/… \[([\d,]+) more/.exec(fitted)?.[1]?.replaceAll(",", ""));
    expect(fitted.indexOf("\n… [") + left).toBe(long.length);
  });

  it("never exceeds the cap, for any text and cap", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3_000 }), fc.integer({ min: 1, max: 2_500 }), (text, cap) => {
        const fitted = fitText(text, cap);
        expect(fitted.length).toBeLessThanOrEqual(cap);
        if (text.length <= cap) expect(fitted).toBe(text);
      }),
    );
  });
});
