import { describe, expect, it } from "vitest";
import type { ExecOptions, ExecResult } from "@/server/domain/sandbox-port";
import { sandboxRealpath } from "./sandbox-realpath";

function fakeSandbox(result: Partial<ExecResult>) {
  const calls: string[] = [];
  const sandbox = {
    exec: async (command: string, _options?: ExecOptions): Promise<ExecResult> => {
      calls.push(command);
      return {
        exitCode: 0,
        stdout: "",
        stderr: "",
        timedOut: false,
        truncated: false,
        durationMs: 1,
        ...result,
      };
    },
  };
  return { sandbox, calls };
}

describe("sandboxRealpath", () => {
  it("runs realpath -m with the path quoted and returns its line", async () => {
    const { sandbox, calls } = fakeSandbox({ stdout: "/workspace/src/it's.ts\n" });
    expect(await sandboxRealpath(sandbox)("/workspace/src/it's.ts")).toBe("/workspace/src/it's.ts");
    expect(calls).toEqual([`realpath -m -- '/workspace/src/it'\\''s.ts'`]);
  });

  it("rejects when realpath fails or its output was cut", async () => {
    await expect(sandboxRealpath(fakeSandbox({ exitCode: 1, stderr: "boom" }).sandbox)("/x")).rejects.toThrow(
      "boom",
    );
    await expect(sandboxRealpath(fakeSandbox({ truncated: true }).sandbox)("/x")).rejects.toThrow();
  });
});
