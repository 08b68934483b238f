import { describe, expect, it } from "vitest";
import { shellQuote, singleQuote } from "@/server/domain/text/shell-quote";

describe("shell quoting", () => {
  it("shellQuote leaves plain words alone and single-quotes the rest", () => {
    expect(shellQuote("src/a.ts")).toBe("src/a.ts");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });

  it("singleQuote always quotes, so the text reads the same whatever the word", () => {
    expect(singleQuote("ls")).toBe("'ls'");
    expect(singleQuote("it's")).toBe(shellQuote("it's"));
  });
});
