import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
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

  it("the card and the interrupted result show how long it ran and what it printed before the crash", () => {
    const soFar = { startedAt: 1_000, seenAt: 7_500, text: "line 2\nline 3\n", totalChars: 9_000 };
    // Nothing was still running: the heartbeat says how long it ran at least.
    const asked = recoveryOf(
      "r1",
      { id: "i1" },
      cycle("make install"),
      { ended: 0, ranMs: null },
      policy,
      soFar,
    );
    const request = asked.events.find((event) => event.type === "approval-requested");
    expect(request).toMatchObject({
      interruption: { ranMs: 6_500, ranKind: "at-least", output: "line 2\nline 3\n", outputChars: 9_000 },
      reason: expect.stringContaining("at least 6.5 s"),
    });
    const result = asked.events.find((event) => event.type === "cycle-result");
    expect(result).toMatchObject({
      durationMs: 6_500,
      output: expect.stringContaining(
        "last 14 of 9000 characters printed before the restart:\nline 2\nline 3",
      ),
    });
    // Still running when the server came back: the sandbox's own running time wins.
    const ended = recoveryOf(
      "r1",
      { id: "i1" },
      cycle("make install"),
      { ended: 1, ranMs: 30_000 },
      policy,
      soFar,
    );
    expect(ended.events.find((event) => event.type === "approval-requested")).toMatchObject({
      interruption: { ranMs: 30_000, ranKind: "ended" },
    });
    // Nothing kept (no store, an older server): the card says so rather than showing nothing.
    const unknown = recoveryOf("r1", { id: "i1" }, cycle("make install"), null, policy, null);
    expect(unknown.events.find((event) => event.type === "approval-requested")).toMatchObject({
      interruption: { ranMs: null, ranKind: null, output: null, outputChars: 0 },
    });
    expect(unknown.events.find((event) => event.type === "cycle-result")).toMatchObject({
      output: expect.stringContaining("What it printed before the restart was not kept."),
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
