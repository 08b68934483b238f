import { describe, expect, it } from "vitest";
import { DEFAULT_CHECKPOINTS } from "@/server/domain/policy/checkpoints";
import type { ExecOptions, ExecResult } from "@/server/domain/sandbox-port";
import { INTENT_REQUIRED_ERROR } from "@/server/governance/intent-gate";
import { approvalBinding } from "@/server/policy/approval/binding";
import type { Sandbox } from "@/server/sandbox/types";
import { type DispatchDeps, resultText, ToolDispatch } from "./dispatch";

/**
 * The dispatch's order and failure handling, over a scripted sandbox (the tools themselves run
 * against real Docker in dispatch.integration.test.ts).
 */
function scripted(links: Record<string, string> = {}) {
  const calls: string[] = [];
  const written: Record<string, string> = {};
  const sandbox: Sandbox = {
    id: "fake",
    sessionId: "s1",
    containerName: "arbor-session-s1",
    async exec(command: string, _options?: ExecOptions): Promise<ExecResult> {
      calls.push(command);
      const real = /^realpath -m -- '?([^']*)'?$/.exec(command)?.[1];
      const stdout =
        real !== undefined ? `${links[real] ?? real}\n` : command.startsWith("du -sb") ? "100\n0\n" : "ran\n";
      return { exitCode: 0, stdout, stderr: "", timedOut: false, truncated: false, durationMs: 1 };
    },
    async readFile() {
      return "";
    },
    async writeFile(path: string, content: string) {
      written[path] = content;
    },
    async dispose() {},
  };
  let acquired = 0;
  const deps: DispatchDeps = {
    sandbox: async () => {
      acquired++;
      return sandbox;
    },
    policy: async () => ({ checkpoints: DEFAULT_CHECKPOINTS }),
    timeoutMs: 5_000,
  };
  return { dispatch: new ToolDispatch(deps), calls, written, acquired: () => acquired, deps };
}

const INTENT = { id: "INT-001", ownedScope: ["src/**"] };

describe("ToolDispatch", () => {
  it("answers an unknown tool and a schema violation with a result, not an exception", async () => {
    const { dispatch, acquired } = scripted();
    const unknown = await dispatch.run({ tool: "git.push", input: {} }, { activeIntent: INTENT });
    expect(unknown).toMatchObject({ status: "invalid", error: { code: "unknown_tool" } });
    const invalid = await dispatch.run({ tool: "fs.write", input: { path: 3 } }, { activeIntent: INTENT });
    expect(invalid).toMatchObject({ status: "invalid", error: { code: "invalid_input" } });
    expect(resultText(invalid)).toMatch(
      /^fs.write invalid: The input of fs.write does not match its schema:\n✖ .*\n {2}→ at path/,
    );
    expect(acquired()).toBe(0);
  });

  it("blocks a mutating tool without an intent before touching the sandbox", async () => {
    const { dispatch, acquired } = scripted();
    const result = await dispatch.run(
      { tool: "fs.write", input: { path: "src/a.ts", content: "x" } },
      { activeIntent: null },
    );
    expect(result).toMatchObject({ status: "denied", error: { message: INTENT_REQUIRED_ERROR } });
    expect(acquired()).toBe(0);
  });

  it("refuses `..` before the sandbox and a symlink out of scope after resolving it there", async () => {
    const { dispatch, written } = scripted({ "/workspace/src/link": "/workspace/secrets/key" });
    const dotdot = await dispatch.run(
      { tool: "fs.write", input: { path: "src/../../etc/passwd", content: "x" } },
      { activeIntent: INTENT },
    );
    expect(dotdot).toMatchObject({ status: "denied" });
    expect(dotdot.error?.message).toContain("outside /workspace");
    const link = await dispatch.run(
      { tool: "fs.write", input: { path: "src/link", content: "x" } },
      { activeIntent: INTENT },
    );
    expect(link).toMatchObject({ status: "denied" });
    expect(link.error?.message).toContain("outside the owned scope");
    const read = await dispatch.run(
      { tool: "fs.read", input: { path: "../etc/passwd" } },
      { activeIntent: null },
    );
    expect(read.status).toBe("denied");
    expect(written).toEqual({});
  });

  it("returns ask with the call's binding, and runs it only with a person's approval of exactly that binding", async () => {
    const { dispatch, written } = scripted();
    const call = { tool: "fs.write", input: { path: "src/a.ts", content: "hello\n" } };
    const asked = await dispatch.run(call, { activeIntent: INTENT });
    expect(asked).toMatchObject({ status: "ask", error: { code: "needs_approval" } });
    expect(asked.binding).toBe(approvalBinding("fs.write", call.input));
    expect(written).toEqual({});

    const other = approvalBinding("fs.write", { path: "src/a.ts", content: "something else\n" });
    const mismatched = await dispatch.run(call, {
      activeIntent: INTENT,
      approval: { binding: other, approver: "Ada" },
    });
    expect(mismatched.status).toBe("ask");
    expect(written).toEqual({});

    const ran = await dispatch.run(call, {
      activeIntent: INTENT,
      approval: { binding: asked.binding ?? "", approver: "Ada" },
    });
    expect(ran).toMatchObject({ status: "ok", output: "Wrote src/a.ts: 1 line, 6 bytes." });
    expect(written).toEqual({ "src/a.ts": "hello\n" });
  });

  it("never runs a denied call, even with an approval", async () => {
    const { dispatch, calls } = scripted();
    const input = { command: "git push --force" };
    const result = await dispatch.run(
      { tool: "shell.exec", input },
      { activeIntent: INTENT, approval: { binding: approvalBinding("shell.exec", input), approver: "Ada" } },
    );
    expect(result.status).toBe("denied");
    expect(calls).toEqual([]);
  });

  it("check() decides without executing", async () => {
    const { dispatch, calls } = scripted();
    const checked = await dispatch.check(
      { tool: "shell.exec", input: { command: "ls" } },
      { activeIntent: INTENT },
    );
    expect(checked).toMatchObject({ status: "ok", gate: { decision: "approve" } });
    expect(calls).toEqual([]);
  });

  it("turns a sandbox that cannot be had into a failed result", async () => {
    const { deps } = scripted();
    const dispatch = new ToolDispatch({
      ...deps,
      sandbox: async () => {
        throw new Error("Docker is not reachable");
      },
    });
    const result = await dispatch.run({ tool: "fs.read", input: { path: "a" } }, { activeIntent: null });
    expect(result).toMatchObject({
      status: "failed",
      error: { code: "sandbox_error", message: "Docker is not reachable" },
    });
  });
});
