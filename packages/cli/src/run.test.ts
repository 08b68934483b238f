import { describe, expect, it } from "vitest";
import type { ApprovalView } from "@/server/domain/session/view";
import { preApproved } from "./run";

const card = (fields: Partial<ApprovalView>) => ({ kind: "command", call: null, ...fields }) as ApprovalView;

describe("--approve", () => {
  it("answers a card only when the person named its tool, category or kind", () => {
    const write = card({ kind: "tool", call: { tool: "fs.write", input: { path: "a" } } });
    expect(preApproved(write, [])).toBe(false);
    expect(preApproved(write, ["fs.write"])).toBe(true);
    expect(preApproved(write, ["write"])).toBe(true);
    expect(preApproved(write, ["git-write", "command"])).toBe(false);
    expect(preApproved(card({ kind: "command" }), ["shell.exec"])).toBe(true);
    expect(preApproved(card({ kind: "command" }), ["fs.write"])).toBe(false);
    expect(preApproved(card({ kind: "decomposition" }), ["decomposition"])).toBe(true);
    // Judgment, integration, budget questions are never answered by a flag.
    expect(preApproved(card({ kind: "judgment" }), ["command", "decomposition", "write"])).toBe(false);
  });
});
