import { describe, expect, it } from "vitest";
import { parseAcceptance } from "@/server/domain/contract/parse-acceptance";
import { deriveFileAction } from "./derive-file-action";

describe("deriveFileAction", () => {
  it("creates a backticked file with backticked content through fs.write", () => {
    const action = deriveFileAction("create `notes.txt` containing `hello`");
    expect(action).toMatchObject({
      rule: "create-file-with-content",
      tool: "fs.write",
      input: { path: "notes.txt", content: "hello\n" },
      acceptance: "the file `notes.txt` contains `hello`",
    });
    expect(parseAcceptance(action?.acceptance ?? "")).toEqual([
      { kind: "FILE_CONTAINS", path: "notes.txt", text: "hello" },
    ]);
  });

  it("reads 'create a new file named x with the content y' and 'write y to x'", () => {
    expect(deriveFileAction("Create a new file named src/a.js with the content `export {}`.")).toMatchObject({
      tool: "fs.write",
      input: { path: "src/a.js", content: "export {}\n" },
    });
    expect(deriveFileAction("write `hi there` to `greeting.txt`")).toMatchObject({
      rule: "write-content-to-file",
      input: { path: "greeting.txt", content: "hi there\n" },
    });
  });

  it("falls back to FILE_EXISTS when the content cannot be quoted in one span", () => {
    const action = deriveFileAction("create file `multi.txt` containing ```\nline one\nline two\n```");
    expect(action?.acceptance).toBe("the file `multi.txt` exists");
    expect(parseAcceptance(action?.acceptance ?? "")).toEqual([{ kind: "FILE_EXISTS", path: "multi.txt" }]);
  });

  it("edits with fs.edit and expects the replacement in the file", () => {
    const action = deriveFileAction("replace `foo` with `bar` in `src/a.js`");
    expect(action).toMatchObject({
      rule: "replace-in-file",
      tool: "fs.edit",
      input: { path: "src/a.js", search: "foo", replace: "bar" },
      acceptance: "the file `src/a.js` contains `bar`",
    });
  });

  it("deletes with fs.delete, without a contract the sandbox could check", () => {
    expect(deriveFileAction("delete `old.txt`")).toMatchObject({
      tool: "fs.delete",
      input: { path: "old.txt" },
      acceptance: null,
    });
    expect(deriveFileAction("remove the file old.txt")).toMatchObject({ input: { path: "old.txt" } });
  });

  it("leaves commands and vague wording to the command rules", () => {
    expect(deriveFileAction("run `touch made.txt`")).toBeUndefined();
    expect(deriveFileAction("create a function containing the logic")).toBeUndefined();
    expect(deriveFileAction("delete everything")).toBeUndefined();
    expect(deriveFileAction("replace foo with bar in a.js")).toBeUndefined();
  });
});
