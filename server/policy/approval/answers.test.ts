import { describe, expect, it } from "vitest";
import { parseApprovalAnswer, resolveApprovalAnswer } from "./answers";
import { approvalBinding } from "./binding";

describe("parseApprovalAnswer", () => {
  it.each([
    ["yes", "yes"],
    [" Y ", "yes"],
    ["n", "no"],
    ["NO", "no"],
    ["a", "abort"],
    ["abort", "abort"],
    ["e", "edit"],
    ["edit", "edit"],
    ["ok", null],
    ["", null],
    ["constructor", null],
    ["yes please", null],
  ])("%j → %s", (text, answer) => {
    expect(parseApprovalAnswer(text)).toBe(answer);
  });
});

describe("resolveApprovalAnswer", () => {
  const tool = "fs.write";
  const toolInput = { path: "src/a.ts", content: "x" };
  const approvedBinding = approvalBinding(tool, toolInput);

  it("executes on yes when the call is the one approved", () => {
    expect(resolveApprovalAnswer({ answer: "yes", approvedBinding, tool, toolInput })).toEqual({
      outcome: "execute",
    });
  });

  it("refuses on yes when the call changed after approval", () => {
    const changed = { ...toolInput, content: "y" };
    expect(resolveApprovalAnswer({ answer: "yes", approvedBinding, tool, toolInput: changed }).outcome).toBe(
      "refuse",
    );
  });

  it("skips on no, stops the run on abort and re-enters the gate on edit", () => {
    expect(resolveApprovalAnswer({ answer: "no", approvedBinding, tool, toolInput })).toMatchObject({
      outcome: "skip",
    });
    expect(resolveApprovalAnswer({ answer: "abort", approvedBinding, tool, toolInput })).toEqual({
      outcome: "abort-run",
    });
    expect(resolveApprovalAnswer({ answer: "edit", approvedBinding, tool, toolInput })).toEqual({
      outcome: "re-decide",
    });
  });
});
