import { describe, expect, it } from "vitest";
import type { ToolCallBody } from "@/server/domain/events/schema";
import { approvalBinding } from "@/server/policy/approval/binding";
import {
  approvalRequestFor,
  approvedCall,
  checkEditedCall,
  contentFromNumberedRead,
  MAX_APPROVAL_CALL_CHARS,
} from "./tool-approval";

const write = { tool: "fs.write", input: { path: "notes.txt", content: "hello\n" } };
const request = (call: ToolCallBody = write, preview: string | null = null) => ({
  runId: "r",
  intentionId: "i",
  approvalId: "a",
  thought: "write it",
  call,
  binding: approvalBinding(call.tool, call.input),
  gate: { reason: "moderate risk" },
  preview,
});

describe("approval requests for tool calls", () => {
  it("asks about a write as kind 'tool' with the exact call, its binding and the file before", () => {
    const outcome = approvalRequestFor(request(write, "old\n"));
    expect(outcome).toEqual({
      ok: true,
      event: expect.objectContaining({
        type: "approval-requested",
        kind: "tool",
        call: write,
        preview: "old\n",
        binding: approvalBinding("fs.write", write.input),
        confirm: false,
        reason: "moderate risk",
      }),
    });
  });

  it("keeps a shell command's request as kind 'command', so old cards and logs stay as they were", () => {
    const call = { tool: "shell.exec", input: { command: "rm -rf build" } };
    const outcome = approvalRequestFor({ ...request(call), gate: { reason: "deletes", confirm: true } });
    expect(outcome.ok && outcome.event).toMatchObject({
      kind: "command",
      command: "rm -rf build",
      confirm: true,
    });
  });

  it("refuses a call too large to show a person rather than showing part of it", () => {
    const big = {
      tool: "fs.write",
      input: { path: "big.txt", content: "x".repeat(MAX_APPROVAL_CALL_CHARS) },
    };
    const outcome = approvalRequestFor(request(big));
    expect(!outcome.ok && outcome.reason).toMatch(/too large to show a person/);
  });
});

describe("a person's edit of a tool call", () => {
  const edit = { tool: "fs.edit", input: { path: "a.js", search: "foo", replace: "bar", all: false } };
  const approval = { kind: "tool", call: edit };

  it("may turn an edit into a whole-file write of the same path", () => {
    const edited = { tool: "fs.write", input: { path: "a.js", content: "baz\n" } };
    expect(checkEditedCall(approval, edited)).toEqual({ ok: true, call: edited });
  });

  it("may not change the file, the tool, or a command approval", () => {
    expect(
      checkEditedCall(approval, { tool: "fs.write", input: { path: "b.js", content: "" } }),
    ).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/cannot change which file/),
    });
    expect(checkEditedCall(approval, { tool: "fs.delete", input: { path: "a.js" } }).ok).toBe(false);
    expect(checkEditedCall({ kind: "command", call: null }, edit).ok).toBe(false);
    expect(
      checkEditedCall({ kind: "tool", call: write }, { tool: "fs.edit", input: { path: "notes.txt" } }).ok,
    ).toBe(false);
  });

  it("treats an unchanged call as no edit", () => {
    expect(checkEditedCall(approval, { tool: "fs.edit", input: { ...edit.input } })).toEqual({
      ok: true,
      call: null,
    });
  });

  it("runs the edit when there is one, the request otherwise, and a command's edited text", () => {
    const base = { call: write, command: null, editedCall: null, editedCommand: null };
    expect(approvedCall(base)).toEqual({ call: write, edited: false });
    const mine = { tool: "fs.write", input: { path: "notes.txt", content: "mine\n" } };
    expect(approvedCall({ ...base, editedCall: mine })).toEqual({ call: mine, edited: true });
    expect(approvedCall({ call: null, command: "ls", editedCall: null, editedCommand: "ls -la" })).toEqual({
      call: { tool: "shell.exec", input: { command: "ls -la" } },
      edited: true,
    });
  });
});

describe("a file's content from fs.read's numbered lines", () => {
  it("drops the line numbers and keeps tabs and blank lines of the file", () => {
    expect(contentFromNumberedRead("     1\thello\n     2\t\n     3\t\tindented\n")).toBe(
      "hello\n\n\tindented\n",
    );
  });

  it("reads an empty file as empty", () => {
    expect(contentFromNumberedRead("(notes.txt is empty or has no lines from 1 on)")).toBe("");
  });
});
