import { describe, expect, it } from "vitest";
import { languageLabel, languageOf, lineSeparatorOf } from "./language";

describe("languageOf", () => {
  it("picks the language by extension, whatever the folder or letter case", () => {
    expect(languageOf("src/app.ts")).toBe("typescript");
    expect(languageOf("src/View.TSX")).toBe("tsx");
    expect(languageOf("lib/index.mjs")).toBe("javascript");
    expect(languageOf("a/b.jsx")).toBe("jsx");
    expect(languageOf("tool.py")).toBe("python");
    expect(languageOf("README.md")).toBe("markdown");
    expect(languageOf("package.json")).toBe("json");
    expect(languageOf("styles/site.css")).toBe("css");
    expect(languageOf("index.html")).toBe("html");
    expect(languageOf(".babelrc")).toBe("json");
  });

  it("is plain text for unknown extensions, dotfiles and names without one", () => {
    expect(languageOf("Makefile")).toBeNull();
    expect(languageOf("notes.txt")).toBeNull();
    expect(languageOf(".env")).toBeNull();
    expect(languageOf("src.d/")).toBeNull();
    expect(languageLabel(null)).toBe("Plain text");
    expect(languageLabel("tsx")).toBe("TypeScript (TSX)");
  });
});

describe("lineSeparatorOf", () => {
  it("keeps a CRLF file CRLF", () => {
    expect(lineSeparatorOf("a\r\nb\r\n")).toBe("\r\n");
    expect(lineSeparatorOf("a\nb\n")).toBe("\n");
    expect(lineSeparatorOf("")).toBe("\n");
  });
});
