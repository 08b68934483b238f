import { describe, expect, it } from "vitest";
import {
  filesFromSearch,
  OFFLINE_ANSWER_HEADING,
  offlineAnswerText,
  questionKeywords,
} from "./offline-answer";

describe("the offline model's answer", () => {
  it("searches for the question's distinctive words, not its filler", () => {
    expect(questionKeywords("Where is the parser configured in this project?")).toEqual([
      "parser",
      "configured",
    ]);
    expect(questionKeywords("what is it?")).toEqual([]);
    expect(questionKeywords("tell me about `src/app.ts`")).toEqual(["app.ts"]);
  });

  it("reads file names out of fs.search lines", () => {
    const matches = [
      { path: "a.ts", line: 1, text: "x" },
      { path: "a.ts", line: 9, text: "y" },
      { path: "src/b.ts", line: 2, text: "z" },
    ];
    expect(filesFromSearch(matches)).toEqual(["a.ts", "src/b.ts"]);
  });

  it("is labelled as not a real answer and points to configuring a model", () => {
    const text = offlineAnswerText([
      { keyword: "parser", files: ["src/parser.ts"], failed: null },
      { keyword: "zebra", files: [], failed: null },
    ]);
    expect(text.startsWith(OFFLINE_ANSWER_HEADING)).toBe(true);
    expect(text).toContain('Files mentioning "parser": src/parser.ts');
    expect(text).toContain('Files mentioning "zebra": none');
    expect(text).toContain("Configure a model");
  });
});
