import { describe, expect, it } from "vitest";
import { actionOf, actionTypeOf, describeCall, judgeToolResult, MAX_RECORDED_STRING } from "./tool-action";

const result = (fields: Partial<Parameters<typeof judgeToolResult>[1]>) => ({
  status: "ok" as const,
  error: null,
  exitCode: null,
  timedOut: false,
  output: "",
  ...fields,
});

describe("seed 000's Action types for tool calls", () => {
  it.each([
    ["fs.write", false, "CREATE"],
    ["fs.write", null, "CREATE"],
    ["fs.write", true, "EDIT"],
    ["fs.edit", true, "EDIT"],
    ["fs.delete", true, "DELETE"],
    ["fs.read", null, "QUERY"],
    ["git.diff", null, "QUERY"],
    ["shell.exec", null, "COMMAND"],
    ["git.commit", null, "COMMAND"],
    ["git.checkout", null, "COMMAND"],
  ] as const)("%s (file existed: %s) → %s", (tool, existed, type) => {
    expect(actionTypeOf(tool, existed)).toBe(type);
  });

  it("keeps the tool and its input, with long strings capped, and the file as target", () => {
    const content = "x".repeat(MAX_RECORDED_STRING + 10);
    const action = actionOf({ tool: "fs.write", input: { path: "a.txt", content } }, false);
    expect(action).toMatchObject({ type: "CREATE", tool: "fs.write", target: "a.txt" });
    expect(String(action.input?.content)).toMatch(/… \(10 more characters\)$/);
    expect(action.content).toMatch(/… \(10 more characters\)$/);
  });

  it("shows a command as itself and an edit as its search and replacement", () => {
    expect(actionOf({ tool: "shell.exec", input: { command: "npm test" } })).toMatchObject({
      type: "COMMAND",
      content: "npm test",
      target: null,
    });
    expect(actionOf({ tool: "fs.edit", input: { path: "a", search: "foo", replace: "bar" } }).content).toBe(
      "replace:\nfoo\nwith:\nbar",
    );
  });

  it("describes a call in one line without repeating a file's content", () => {
    expect(describeCall({ tool: "fs.write", input: { path: "a.txt", content: "secret-ish body" } })).toBe(
      "fs.write a.txt",
    );
    expect(describeCall({ tool: "fs.read", input: { path: "a.txt", startLine: 3 } })).toBe(
      "fs.read a.txt startLine=3",
    );
    expect(describeCall({ tool: "shell.exec", input: { command: "ls -la" } })).toBe("ls -la");
  });
});

describe("judging a tool call's result before the contract", () => {
  it("a write that landed is SUCCESS; one that failed is FAILURE with the tool's reason", () => {
    expect(judgeToolResult({ tool: "fs.write" }, result({}))).toEqual({
      judgment: "SUCCESS",
      reason: "fs.write succeeded",
    });
    const failed = judgeToolResult(
      { tool: "fs.edit" },
      result({
        status: "failed",
        error: { code: "search_not_found", message: "The search text does not occur in a.js." },
      }),
    );
    expect(failed).toEqual({
      judgment: "FAILURE",
      reason: "fs.edit failed: The search text does not occur in a.js.",
    });
    const denied = judgeToolResult(
      { tool: "fs.write" },
      result({ status: "denied", error: { code: "denied", message: "outside the owned scope" } }),
    );
    expect(denied.judgment).toBe("FAILURE");
  });

  it("a read never verifies by itself", () => {
    expect(judgeToolResult({ tool: "fs.read" }, result({ output: "1\thello" })).judgment).toBe("UNCLEAR");
  });

  it("a command is judged by its exit code, as before", () => {
    expect(judgeToolResult({ tool: "shell.exec" }, result({ exitCode: 0 })).judgment).toBe("SUCCESS");
    expect(judgeToolResult({ tool: "shell.exec" }, result({ status: "failed", exitCode: 2 })).reason).toBe(
      "exit code 2",
    );
  });
});
