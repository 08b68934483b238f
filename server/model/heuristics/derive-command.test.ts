import { describe, expect, it } from "vitest";
import { singleQuote } from "@/server/domain/text/shell-quote";
import { printLine } from "@/server/domain/text/shell-quote-always";
import { deriveCommand, explainNoCommand, unwrap } from "./derive-command";

describe("deriveCommand", () => {
  it.each([
    ["run `npm test`", "backticked-command", "npm test"],
    ["`pwd`", "backticked-command", "pwd"],
    ["check that `npm run lint` passes", "backticked-command", "npm run lint"],
    ["run ```\nmake && make test\n```", "backticked-command", "make && make test"],
    ["run npm test", "run-command", "npm test"],
    ["execute ls -la.", "run-command", "ls -la"],
    ["run the command git log -1", "run-command", "git log -1"],
    ["list files", "list-files", "ls -la"],
    ["list the files in src", "list-files", "ls -la -- 'src'"],
    ["show git status", "git-status", "git status"],
    ["git status", "git-status", "git status"],
    ["show the git log", "git-log", "git log --oneline -n 20"],
    ["show the diff", "git-diff", "git diff"],
    ["show file README.md", "show-file", "cat -- 'README.md'"],
    ["delete file tmp.txt", "delete-file", "rm -- 'tmp.txt'"],
    ["create an empty file x.txt", "create-empty-file", "touch -- 'x.txt'"],
    ["create directory src/lib", "create-directory", "mkdir -p -- 'src/lib'"],
    [
      "create file notes.txt with hello world",
      "create-file-with-content",
      "printf '%s\\n' 'hello world' > 'notes.txt'",
    ],
    [
      "create a file named `notes.txt` containing the text `it's done`",
      "create-file-with-content",
      "printf '%s\\n' 'it'\\''s done' > 'notes.txt'",
    ],
    ["write 'hi there' to out.txt", "write-content-to-file", "printf '%s\\n' 'hi there' > 'out.txt'"],
    ["print hello world", "print-text", "printf '%s\\n' 'hello world'"],
    ["echo $HOME", "print-text", "printf '%s\\n' '$HOME'"],
  ])("%j → %s: %s", (what, rule, command) => {
    expect(deriveCommand(what)).toMatchObject({ rule, command });
  });

  it("maps 'run the tests' to a runner chosen from the project's files", () => {
    const derived = deriveCommand("run the tests");
    expect(derived.rule).toBe("run-tests");
    expect(derived.command).toContain("npm test");
    expect(derived.command).toContain("python3 -m pytest");
    expect(derived.command).toContain("exit 2");
  });

  it.each(["make it better", "run the build", "run some checks", "fix the bug in `src/app.ts`", ""])(
    "does not guess a command for %j: it explains on stderr and exits 2",
    (what) => {
      const derived = deriveCommand(what);
      expect(derived.rule).toBe("no-command");
      expect(derived.command).toBe(explainNoCommand(what.trim()));
      expect(derived.command).toMatch(/>&2; exit 2$/);
    },
  );

  it("quotes a hostile step safely in the explanation", () => {
    const command = explainNoCommand("it's $(rm -rf /) `x`");
    expect(command).toBe(
      `${printLine("offline model: no explicit command in 'it's $(rm -rf /) `x`'; put the command in backticks, e.g. run `npm test`")} >&2; exit 2`,
    );
    expect(
      command.startsWith("printf '%s\\n' 'offline model: no explicit command in '\\''it'\\''s $(rm -rf /)"),
    ).toBe(true);
  });

  it("is deterministic", () => {
    expect(deriveCommand("create file a with b")).toEqual(deriveCommand("create file a with b"));
  });
});

describe("shell quoting helpers", () => {
  it("single-quotes and escapes embedded quotes", () => {
    expect(singleQuote("plain")).toBe("'plain'");
    expect(singleQuote("it's")).toBe("'it'\\''s'");
    expect(singleQuote("")).toBe("''");
  });

  it("unwraps one layer of quotes or backticks, and a bare word's trailing full stop", () => {
    expect(unwrap("`a b`")).toBe("a b");
    expect(unwrap("'a b'")).toBe("a b");
    expect(unwrap('"a b"')).toBe("a b");
    expect(unwrap("file.txt.")).toBe("file.txt");
    expect(unwrap("`a.`")).toBe("a.");
  });
});
