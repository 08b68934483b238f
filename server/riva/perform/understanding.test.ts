import pino from "pino";
import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import type { CodebaseIntent } from "@/server/domain/intent/codebase-intent";
import { DEFAULT_CHECKPOINTS } from "@/server/domain/policy/checkpoints";
import type { IntentionView } from "@/server/domain/session/view";
import { ModelOutputError } from "@/server/model/errors";
import type { AgentModel, ContractInput } from "@/server/model/types";
import { buildContract, contractEvents, testFirstAction, type UnderstandingHost } from "./understanding";

const CALL = {
  stage: "contract" as const,
  modelId: "m",
  offline: false,
  tokensIn: 1,
  tokensOut: 1,
  latencyMs: 1,
};

function hostWith(buildContract: AgentModel["buildContract"]) {
  const appended: EventInput[] = [];
  const asked: ContractInput[] = [];
  const model: AgentModel = {
    id: "m",
    label: "m",
    offline: false,
    plan: () => Promise.reject(new Error("not used")),
    nextAction: () => Promise.reject(new Error("not used")),
    ...(buildContract
      ? {
          buildContract: (input: ContractInput, signal?: AbortSignal) => {
            asked.push(input);
            return buildContract(input, signal);
          },
        }
      : {}),
  };
  const host: UnderstandingHost = {
    deps: { model, logger: pino({ level: "silent" }), sleep: async () => {} },
    runId: "r1",
    modelFor: () => model,
    request: () => ({ runId: "r1", mode: "agent", reasoning: "off" }),
    llmCalled: (call, intentionId) => ({
      type: "llm-called",
      runId: "r1",
      intentionId,
      ...call,
      error: null,
    }),
    checkpoints: async () => DEFAULT_CHECKPOINTS,
    append: async (bodies) => {
      appended.push(...bodies);
    },
  };
  return { host, appended, asked };
}

const intention = (acceptance: string) =>
  ({ id: "i1", what: "make the greeting friendlier", acceptance }) as IntentionView;
const signal = new AbortController().signal;

describe("buildContract", () => {
  it("uses what the acceptance names, without asking the model", async () => {
    const { host, asked } = hostWith(async () => ({
      contract: { thought: "", criteria: [], dropped: [], generatedTest: null },
      call: CALL,
    }));
    const outcome = await buildContract(host, intention("the file `a.txt` exists"), { task: "t" }, signal);
    expect(outcome).toEqual({
      criteria: [{ kind: "FILE_EXISTS", path: "a.txt" }],
      source: "acceptance",
      dropped: [],
      generatedTest: null,
    });
    expect(asked).toHaveLength(0);
  });

  it("asks the model when the acceptance names nothing checkable, and logs the call", async () => {
    const { host, appended, asked } = hostWith(async () => ({
      contract: {
        thought: "t",
        criteria: [{ kind: "FILE_CONTAINS", path: "hi.txt", text: "hello" }],
        dropped: [],
        generatedTest: null,
      },
      call: CALL,
    }));
    const outcome = await buildContract(
      host,
      intention("it reads nicely"),
      { task: "the task", repoSummary: "TS" },
      signal,
    );
    expect(outcome.source).toBe("model");
    expect(outcome.criteria).toEqual([{ kind: "FILE_CONTAINS", path: "hi.txt", text: "hello" }]);
    expect(asked[0]).toMatchObject({ task: "the task", acceptance: "it reads nicely", repoSummary: "TS" });
    expect(appended).toEqual([
      expect.objectContaining({ type: "llm-called", stage: "contract", error: null }),
    ]);
  });

  it("never turns a command the gate would ask about into a check that runs without a click", async () => {
    const { host } = hostWith(async () => ({
      contract: {
        thought: "t",
        criteria: [
          { kind: "TESTS_PASS", command: "rm -rf / && echo ok" },
          { kind: "TESTS_PASS", command: "echo $(cat /etc/passwd)" },
          { kind: "TESTS_PASS", command: "ls" },
        ],
        dropped: ["#4 (NOPE): bad"],
        generatedTest: null,
      },
      call: CALL,
    }));
    const outcome = await buildContract(host, intention("it works"), { task: "t" }, signal);
    expect(outcome.criteria).toEqual([{ kind: "TESTS_PASS", command: "ls" }]);
    expect(outcome.dropped).toEqual([
      "#4 (NOPE): bad",
      expect.stringMatching(/^`rm -rf \/ && echo ok` would need a person's approval/),
      expect.stringMatching(/^`echo \$\(cat \/etc\/passwd\)` would need a person's approval/),
    ]);
    const [event] = contractEvents("r1", intention("it works"), outcome);
    expect(event).toMatchObject({ type: "contract-built", source: "model", dropped: outcome.dropped });
  });

  it("falls back to no checks when the model fails, with the failure in the log", async () => {
    const { host, appended } = hostWith(() => Promise.reject(new ModelOutputError("no valid call", CALL)));
    const outcome = await buildContract(host, intention("it works"), { task: "t" }, signal);
    expect(outcome).toEqual({ criteria: [], source: "acceptance", dropped: [], generatedTest: null });
    expect(appended.at(-1)).toMatchObject({
      type: "llm-called",
      stage: "contract",
      error: expect.stringMatching(/no valid call; the action's exit code is the only check/),
    });
    expect(contractEvents("r1", intention("it works"), outcome)).toEqual([]);
  });

  it("without a contract-writing model, the acceptance alone decides (offline)", async () => {
    const { host } = hostWith(undefined);
    const outcome = await buildContract(host, intention("it works"), { task: "t" }, signal);
    expect(outcome).toEqual({ criteria: [], source: "acceptance", dropped: [], generatedTest: null });
  });

  it("test first: a generated test whose command runs unasked becomes a check and the first action", async () => {
    const test = {
      path: "tests/greet.test.sh",
      content: 'test "$(cat hi.txt)" = hello\n',
      command: "cat tests/greet.test.sh",
    };
    const { host } = hostWith(async () => ({
      contract: { thought: "t", criteria: [], dropped: [], generatedTest: test },
      call: CALL,
    }));
    const outcome = await buildContract(host, intention("it greets"), { task: "t" }, signal);
    expect(outcome.criteria).toEqual([
      { kind: "GENERATED_TEST_PASSES", path: test.path, command: test.command },
    ]);
    expect(outcome.generatedTest).toEqual({ path: test.path, content: test.content });
    const node = {
      ...intention("it greets"),
      cycles: [],
      contractBy: {
        source: "model",
        dropped: [],
        generatedTest: outcome.generatedTest && { ...outcome.generatedTest, atCycle: 0 },
      },
    } as unknown as IntentionView;
    expect(testFirstAction(node)).toMatchObject({
      tool: "fs.write",
      input: { path: test.path, content: test.content },
    });
    expect(testFirstAction({ ...node, cycles: [{}] } as unknown as IntentionView)).toBeNull();
  });

  it("a generated test whose command the gate would ask about is left out, file and check both", async () => {
    const test = { path: "t.sh", content: "exit 1", command: "sh t.sh; curl evil.example" };
    const { host } = hostWith(async () => ({
      contract: { thought: "t", criteria: [], dropped: [], generatedTest: test },
      call: CALL,
    }));
    const outcome = await buildContract(host, intention("it greets"), { task: "t" }, signal);
    expect(outcome.criteria).toEqual([]);
    expect(outcome.generatedTest).toBeNull();
    expect(outcome.dropped).toEqual([
      expect.stringMatching(/^`sh t.sh; curl evil.example` would need a person's approval/),
    ]);
  });

  describe("issue #4's rule for a generated test", () => {
    const proposed = {
      path: "src/greet.test.ts",
      content: "test('hi', () => {});\n",
      command: "npx vitest run",
    };
    const codebase = (testFramework: string, testFiles: string[]) =>
      ({ testFramework, testFiles }) as unknown as CodebaseIntent;
    const contractFor = async (context: { codebase: CodebaseIntent }) => {
      const { host } = hostWith(async () => ({
        contract: { thought: "t", criteria: [], dropped: [], generatedTest: proposed },
        call: CALL,
      }));
      // The project lets commands run unasked, so only the rule decides what is kept.
      const neverAsk = { ...DEFAULT_CHECKPOINTS, commands: "never-ask" as const };
      const unasked = { ...host, checkpoints: async () => neverAsk };
      return buildContract(unasked, intention("it greets"), { task: "t", ...context }, signal);
    };

    it("runs the generated file alone: an unscoped command is replaced by the framework's scoped one", async () => {
      const outcome = await contractFor({ codebase: codebase("vitest", ["src/other.test.ts"]) });
      expect(outcome.criteria).toEqual([
        { kind: "GENERATED_TEST_PASSES", path: proposed.path, command: "npx vitest run src/greet.test.ts" },
      ]);
      expect(outcome.generatedTest).toEqual({ path: proposed.path, content: proposed.content });
    });

    it("drops it, with the reason, when a test for the target already exists", async () => {
      const outcome = await contractFor({ codebase: codebase("vitest", ["test/greet.spec.ts"]) });
      expect(outcome.generatedTest).toBeNull();
      expect(outcome.criteria).toEqual([]);
      expect(outcome.dropped).toEqual([
        "generated test src/greet.test.ts: a test for it already exists (test/greet.spec.ts)",
      ]);
    });

    it("drops it for a Rust project", async () => {
      const outcome = await contractFor({ codebase: codebase("cargo test", []) });
      expect(outcome.generatedTest).toBeNull();
      expect(outcome.dropped).toEqual([expect.stringMatching(/not for Rust/)]);
    });
  });
});

describe("buildContract: the project's detected tests when nothing checkable is named (issue #15)", () => {
  const codebase = {
    languages: ["JavaScript"],
    testFramework: "node:test",
    testCommand: "npm test",
    conventions: [],
    fileCount: 3,
    relatedFiles: [],
    testFiles: ["test/sum.test.js"],
  } satisfies CodebaseIntent;
  const none = async () => ({
    contract: { thought: "", criteria: [], dropped: [], generatedTest: null },
    call: CALL,
  });

  it("no named check and the model wrote none: the detected tests scoped to the target, marked as the fallback", async () => {
    const { host } = hostWith(none);
    const outcome = await buildContract(
      host,
      intention("the test passes"),
      { task: "t", codebase, targets: ["sum.js"] },
      signal,
    );
    expect(outcome).toMatchObject({
      criteria: [{ kind: "TESTS_PASS", command: "node --test --test-reporter=tap test/sum.test.js" }],
      source: "detected-tests",
      detectedTests: [0],
    });
    const [event] = contractEvents("r1", intention("the test passes"), outcome);
    expect(event).toMatchObject({ type: "contract-built", source: "detected-tests", detectedTests: [0] });
  });

  it("a named check, or no detected test command: no fallback at this point", async () => {
    const { host } = hostWith(none);
    const named = await buildContract(
      host,
      intention("the file `a.txt` exists"),
      { task: "t", codebase },
      signal,
    );
    expect(named.detectedTests).toBeUndefined();
    const bare = await buildContract(
      host,
      intention("the test passes"),
      { task: "t", codebase: null },
      signal,
    );
    expect(bare.criteria).toEqual([]);
  });
});
