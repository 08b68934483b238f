import { afterAll, beforeAll } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { type SessionDispatchSettings, sessionDispatch } from "@/server/runtime/session-runtime";
import type { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import type { Sandbox } from "@/server/sandbox/types";
import type { DispatchContext, ToolCall, ToolDispatch } from "@/server/tools/dispatch";
import type { GatePolicy } from "@/server/tools/tool-gate";
import { cleanUp, makeBareRepo, PREFIX, testProvider } from "@/testing/sandbox/docker";

/**
 * What the dispatch's integration tests share: a real Docker sandbox holding a clone of a test
 * repository on branch `arbor/tools`, and the dispatch, approvals and shell helpers over it.
 */

export const SCOPED = { id: "INT-001", ownedScope: ["src/**", "notes/**"] };
export const WIDE = { id: "INT-002", ownedScope: ["**"] };
// Pre-approved for the project: a run's pre-approval never covers dangerous tools such as fs.delete.
export const NO_QUESTIONS: GatePolicy = {
  checkpoints: CheckpointPolicy.parse({ commands: "never-ask" }),
  preApproved: { project: ["write", "git-write", "shell"] },
};

/** Registers the suite's hooks: one sandbox (session `<PREFIX>-<name>`) for the whole file. */
export function toolSandboxSuite(name: string) {
  let provider: DockerSandboxProvider;
  let box: Sandbox;
  beforeAll(async () => {
    provider = testProvider(name);
    box = await provider.create({
      sessionId: `${PREFIX}-${name}`,
      repoPath: makeBareRepo(true),
      branch: "arbor/tools",
    });
  }, 600_000);
  afterAll(async () => {
    await box?.dispose();
    await cleanUp(provider);
  });

  function dispatchWith(overrides: Partial<SessionDispatchSettings> = {}) {
    return sessionDispatch({
      sandbox: async () => box,
      policy: async () => NO_QUESTIONS,
      commandTimeoutMs: 20_000,
      ...overrides,
    });
  }

  /** Runs a call as a person who approves whatever the gate asks about (a deny still stops it). */
  async function approved(dispatch: ToolDispatch, call: ToolCall, context: DispatchContext) {
    const checked = await dispatch.check(call, context);
    return dispatch.run(call, { ...context, approval: { binding: checked.binding ?? "", approver: "Ada" } });
  }

  async function sh(command: string): Promise<string> {
    const result = await box.exec(command);
    if (result.exitCode !== 0) throw new Error(`${command}: ${result.stderr}`);
    return result.stdout;
  }

  return { box: () => box, dispatchWith, approved, sh };
}
