import { describe, expect, it } from "vitest";
import { intentContext, parseIntentsFile } from "@/server/tools/intents-file";
import { applyEdit } from "./edit-text";

describe("fs.edit's search/replace", () => {
  const file = "one\ntwo\nthree\ntwo\n";

  it("replaces the one occurrence and says where", () => {
    expect(applyEdit(file, { search: "three", replace: "3", all: false }, "a.txt")).toEqual({
      ok: true,
      content: "one\ntwo\n3\ntwo\n",
      replacements: 1,
      firstLine: 3,
    });
  });

  it("refuses a missing search text with a clear error, and hints at whitespace", () => {
    const missing = applyEdit(file, { search: "four", replace: "4", all: false }, "a.txt");
    expect(missing).toMatchObject({ ok: false, code: "search_not_found" });
    expect(missing.ok ? "" : missing.message).toContain("does not occur in a.txt");
    const spaced = applyEdit(file, { search: "  three ", replace: "3", all: false }, "a.txt");
    expect(spaced.ok ? "" : spaced.message).toContain("different leading or trailing whitespace");
  });

  it("refuses an ambiguous search text and names the lines", () => {
    const ambiguous = applyEdit(file, { search: "two", replace: "2", all: false }, "a.txt");
    expect(ambiguous).toMatchObject({ ok: false, code: "search_ambiguous" });
    expect(ambiguous.ok ? "" : ambiguous.message).toContain("occurs 2 times in a.txt (lines 2, 4)");
  });

  it("replaces every occurrence with all, and treats $ and regex characters literally", () => {
    expect(applyEdit(file, { search: "two", replace: "$&2", all: true }, "a.txt")).toMatchObject({
      ok: true,
      content: "one\n$&2\nthree\n$&2\n",
      replacements: 2,
    });
    expect(applyEdit("a.b", { search: ".", replace: "$1", all: false }, "x")).toMatchObject({
      content: "a$1b",
    });
  });
});

describe("active_intents.yaml and <intent_context>", () => {
  const yaml = [
    "active_intents:",
    '  - id: "INT-001"',
    '    name: "JWT <Auth> Migration"',
    '    status: "IN_PROGRESS"',
    "    owned_scope:",
    '      - "src/auth/**"',
    "    constraints:",
    '      - "Must not use external auth providers"',
    "    acceptance_criteria:",
    '      - "Unit tests in tests/auth/ pass"',
  ].join("\n");

  it("renders the seed's block, escaped", () => {
    const parsed = parseIntentsFile(yaml);
    if (!parsed.ok) throw new Error(parsed.reason);
    const block = intentContext(parsed.intents[0] as never);
    expect(block).toContain('<intent id="INT-001" name="JWT &lt;Auth&gt; Migration">');
    expect(block).toContain("<path>src/auth/**</path>");
    expect(block).toContain("<constraint>Must not use external auth providers</constraint>");
    expect(block).toContain("<criterion>Unit tests in tests/auth/ pass</criterion>");
    expect(block.startsWith("<intent_context>")).toBe(true);
  });

  it("says why a broken file cannot be read", () => {
    expect(parseIntentsFile("active_intents: [")).toMatchObject({ ok: false });
    expect(parseIntentsFile("active_intents:\n  - name: no id")).toMatchObject({ ok: false });
    expect(parseIntentsFile("")).toEqual({ ok: true, intents: [] });
  });
});
