import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/policy/checkpoints";
import { parseEndedLeftovers } from "@/server/sandbox/shell";
import { describeLeftovers, recoveryOf } from "./interrupted-cycle";

const policy = CheckpointPolicy.parse({
  commands: "never-ask",
  allowCommands: [
    { program: "cat", args: [] },
    { program: "npm", args: ["test"] },
  ],
});
const cycle = (command: string) => ({
  id: "c1",
  output: null,
  action: {
    type: "COMMAND" as const,
    content: command,
    target: null,
    tool: "shell.exec",
    input: { command },
  },
});

describe("a cycle cut off by a crash", () => {
  it("re-runs a read-only command as it was", () => {
    const recovery = recoveryOf(
      "r1",
      { id: "i1" },
      cycle("cat package.json"),
      { ended: 2, ranMs: 3_000 },
      policy,
    );
    expect(recovery.kind).toBe("rerun");
    expect(recovery.events.map((event) => event.type)).toEqual(["cycle-result", "cycle-judged"]);
    expect(recovery.events[0]).toMatchObject({
      interrupted: true,
      output: expect.stringContaining("read-only, so it runs again"),
    });
  });

  it("asks a person before any other command runs again, saying how long it ran, even when the project never asks", () => {
    const recovery = recoveryOf(
      "r1",
      { id: "i1" },
      cycle("echo step >> log.txt"),
      { ended: 2, ranMs: 4_000 },
      policy,
    );
    expect(recovery.kind).toBe("ask");
    const request = recovery.events.find((event) => event.type === "approval-requested");
    expect(request).toMatchObject({
      kind: "command",
      command: "echo step >> log.txt",
      confirm: true,
      reason: expect.stringContaining("running for 4.0 s and was ended"),
    });
  });

  it("the project's allow-list does not make a writer read-only: a test runner asks too", () => {
    expect(recoveryOf("r1", { id: "i1" }, cycle("npm test"), null, policy).kind).toBe("ask");
  });

  it("a file tool is tried again by the intention (UNCLEAR), not re-run here", () => {
    const write = {
      id: "c1",
      output: null,
      action: {
        type: "CREATE" as const,
        content: "x",
        target: "a.txt",
        tool: "fs.write",
        input: { path: "a.txt", content: "x" },
      },
    };
    expect(recoveryOf("r1", { id: "i1" }, write, null, policy).kind).toBe("retry");
  });

  it("reads what the sandbox ended", () => {
    expect(parseEndedLeftovers("101 4\n102 3\n")).toEqual({ ended: 2, ranMs: 4_000 });
    expect(parseEndedLeftovers("")).toEqual({ ended: 0, ranMs: null });
    expect(describeLeftovers({ ended: 0, ranMs: null })).toBe(
      "it was no longer running when the server came back",
    );
  });
});
