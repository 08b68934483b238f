import { describe, expect, it } from "vitest";
import { decomposedRun, sequence } from "@/testing/events/events";
import { editedWriteCall } from "./edit-write";

const requested = (approvalId: string, call: { tool: string; input: Record<string, unknown> }) => ({
  type: "approval-requested" as const,
  runId: "run-1",
  approvalId,
  intentionId: "c1",
  kind: "tool" as const,
  thought: "write it",
  binding: "sha256:x",
  call,
  preview: "old\n",
});

describe("arbor approve --edit-content", () => {
  const events = sequence([
    ...decomposedRun(),
    requested("w1", { tool: "fs.write", input: { path: "notes.txt", content: "hello\n" } }),
    requested("e1", { tool: "fs.edit", input: { path: "notes.txt", search: "a", replace: "b" } }),
  ]);

  it("keeps the write's tool and path and replaces only its content", () => {
    expect(editedWriteCall(events, "w1", "mine\n")).toEqual({
      tool: "fs.write",
      input: { path: "notes.txt", content: "mine\n" },
    });
  });

  it("refuses an approval that is not a file write, or is unknown", () => {
    expect(() => editedWriteCall(events, "e1", "x")).toThrow(/not a file write \(fs\.edit\)/);
    expect(() => editedWriteCall(events, "nope", "x")).toThrow(/No approval nope/);
  });
});
