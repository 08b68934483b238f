import { describe, expect, it } from "vitest";
import { displayName, titleFrom, unprintableProblem } from "./display-name";

const ProjectName = displayName({ what: "project name", empty: "Give the project a name.", max: 100 });

describe("displayName: printable names only", () => {
  it.each([
    ["a lone surrogate", "proj\uD800ect", /broken Unicode.*U\+D800, at position 5/],
    ["a lone low surrogate", "\uDC00", /broken Unicode.*U\+DC00/],
    ["NUL", "a\u0000b", /control character, U\+0000, at position 2/],
    ["an ANSI escape", "\u001b[31mred\u001b[0m", /control character, U\+001B, at position 1/],
    ["DEL", "a\u007f", /control character, U\+007F/],
    ["a C1 control", "a\u009bb", /control character, U\+009B/],
    ["a newline", "two\nlines", /control character, U\+000A/],
    ["U+202E right-to-left override", "invoice\u202Egpj.exe", /formatting character.*U\+202E, at position 8/],
    ["U+2066 left-to-right isolate", "a\u2066b", /U\+2066/],
    ["U+200E left-to-right mark", "a\u200Eb", /U\+200E/],
    ["a line separator", "a\u2028b", /control character, U\+2028/],
    ["a zero-width space", "ad\u200Bmin", /U\+200B/],
    ["a byte-order mark inside", "na\uFEFFme", /U\+FEFF/],
    ["a private-use character", "a\uE000", /not printable, U\+E000/],
  ])("refuses %s, naming the character", (_name, input, message) => {
    const parsed = ProjectName.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/^The project name cannot contain /);
    expect(parsed.error?.issues[0]?.message).toMatch(message);
  });

  it.each([
    ["plain", "Arbor"],
    ["accents and CJK", "Café 東京"],
    ["Arabic (right-to-left text itself is fine)", "مشروع"],
    ["an emoji with zero-width joiners", "team 👩‍💻"],
    ["a surrogate pair (astral plane)", "𝔸rbor"],
  ])("accepts %s", (_name, input) => {
    expect(ProjectName.parse(`  ${input} `)).toBe(input);
  });

  it("counts characters, not UTF-16 units, and still refuses empty names", () => {
    expect(ProjectName.safeParse("😀".repeat(100)).success).toBe(true);
    expect(ProjectName.safeParse("😀".repeat(101)).error?.issues[0]?.message).toBe(
      "The project name has at most 100 characters.",
    );
    expect(ProjectName.safeParse("   ").error?.issues[0]?.message).toBe("Give the project a name.");
  });

  it("unprintableProblem is null for printable text", () => {
    expect(unprintableProblem("hello, world — 😀")).toBeNull();
  });
});

describe("titleFrom: a printable title from free text", () => {
  it("never cuts a surrogate pair in half and drops controls and overrides", () => {
    const title = titleFrom(`${"a".repeat(118)}😀😀😀`, 120);
    expect(unprintableProblem(title)).toBeNull();
    expect([...title]).toHaveLength(120);
    expect(titleFrom("fix\u0000 the\u202E\n\tbug\u001b[0m")).toBe("fix the bug [0m");
    expect(titleFrom("\u0000\u202E")).toBe("Untitled session");
  });
});
