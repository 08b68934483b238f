import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { EventStore } from "@/server/events/store";
import { orchestratorWorld } from "@/server/testing/orchestrator-world";
import type { Orchestrator } from "./orchestrator";

/**
 * Issue #15 items 2, 3 and 5 with every real part (SQLite, Docker, the AI SDK over HTTP to the fake
 * model server), under "ask before every command": a node:test project whose `sum.js` subtracts. The
 * model's contract ("sum.js contains `a + b`") is already green before any work (a comment says it),
 * so the project's detected tests, scoped to the target (`node --test --test-reporter=tap test/sum.test.js`), are added
 * as a fallback; every check asks at the baseline with a command card and runs only once approved;
 * the detected tests are red before the edit and green after it: red → green.
 */
const world = orchestratorWorld({ repoName: "Detected", fakeModel: true });
const { actor } = world;
const git = promisify(execFile);

const SUM = "// sum returns a + b\nexports.sum = (a, b) => a - b;\n";
const TEST = `const test = require("node:test");
const assert = require("node:assert");
const { sum } = require("../sum");
test("adds two numbers", () => assert.strictEqual(sum(1, 2), 3));
`;

beforeAll(async () => {
  const work = await mkdtemp(path.join(tmpdir(), "arbor-detected-"));
  try {
    await git("git", ["clone", "-q", world.repoPath, work]);
    await writeFile(
      path.join(work, "package.json"),
      JSON.stringify({ name: "p", scripts: { test: "node --test" } }),
    );
    await writeFile(path.join(work, "sum.js"), SUM);
    await mkdir(path.join(work, "test"));
    await writeFile(path.join(work, "test", "sum.test.js"), TEST);
    await git("git", ["add", "."], { cwd: work });
    await git("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "project"], {
      cwd: work,
    });
    await git("git", ["push", "-q", "origin", "HEAD:main"], { cwd: work });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

type Pending = { id: string; kind: string; payload: string };
const payloadOf = (pending: Pending) => JSON.parse(pending.payload) as { command?: string; thought?: string };

async function answerUntilEnded(orch: Orchestrator, runId: string, answer: (pending: Pending) => boolean) {
  const seen: Pending[] = [];
  for (let i = 0; i < 1_200; i++) {
    const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
    if (run.status !== "RUNNING") break;
    const pending = await world.db.approval.findFirst({
      where: { sessionId: world.sessionId, status: "PENDING" },
    });
    if (pending) {
      seen.push(pending);
      const approved = answer(pending);
      await orch.decide({
        sessionId: world.sessionId,
        approvalId: pending.id,
        decision: approved ? "approved" : "rejected",
        reason: approved ? null : "not before the work",
        actor,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await orch.idle();
  return seen;
}

async function start() {
  const store = new EventStore(world.db);
  const orch = world.orchestrator({
    log: store,
    model: world.scriptedModel("default"),
    runningRuns: async () => [],
    checkpointsOf: async () => CheckpointPolicy.parse({ commands: "ask-always" }),
  });
  const { runId } = await orch.startRun({
    sessionId: world.sessionId,
    task: "replace `a - b` with `a + b` in `sum.js`",
    mode: "agent",
    actor,
  });
  return { store, orch, runId };
}

const DETECTED = "node --test --test-reporter=tap test/sum.test.js";

describe("the project's detected tests as a fallback check", () => {
  it("green named check, detected tests red before and green after, every check asked first: red → green", async () => {
    const { store, orch, runId } = await start();
    const seen = await answerUntilEnded(orch, runId, () => true);

    const view = await world.view();
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(root?.contract).toEqual([
      { kind: "FILE_CONTAINS", path: "sum.js", text: "a + b" },
      { kind: "TESTS_PASS", command: DETECTED },
    ]);
    expect(root?.contractBy?.detectedTests).toEqual([1]);
    // Before any work: the named check green, the detected tests red with the failing test's name.
    expect(root?.baseline?.results).toMatchObject([
      { index: 0, result: { passed: true } },
      { index: 1, result: { passed: false, tests: { failed: 1, failingTests: ["adds two numbers"] } } },
    ]);
    expect(root?.baseline?.results[1]?.result.couldNotRun).toBeUndefined();
    // Each baseline check asked with a card of its own (this project asks before every command).
    const baselineCards = seen.filter((card) => payloadOf(card).thought?.startsWith("Check before any work"));
    expect(baselineCards.map((card) => payloadOf(card).command)).toEqual([
      "grep -n -F -m 3 -- 'a + b' sum.js",
      DETECTED,
    ]);
    expect(root?.status).toBe("VERIFIED");
    expect(root?.evidence).toBe("red-to-green");
    expect(root?.reason).toContain(DETECTED);
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    // The checks ran through the door: asked first, then run with the person's bound approval.
    const ran = (await store.read(world.sessionId)).flatMap((event) =>
      event.body.type === "check-ran" && event.body.command === DETECTED ? [event.body] : [],
    );
    expect(ran.map((check) => [check.phase, check.status])).toEqual([
      ["baseline", "ask"],
      ["baseline", "failed"],
      ["after-action", "ok"],
    ]);
  }, 180_000);

  it("a person who declines the detected tests before the work: they cannot show red → green, not verified", async () => {
    const { orch, runId } = await start();
    await answerUntilEnded(orch, runId, (pending) => payloadOf(pending).command !== DETECTED);

    const view = await world.view();
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(root?.contractBy?.detectedTests).toEqual([1]);
    expect(root?.baseline?.results[1]?.result.couldNotRun).toContain("needs a person's approval");
    expect(root?.status).not.toBe("VERIFIED");
    expect(view.runs[runId]?.status).not.toBe("VERIFIED");
  }, 180_000);
});
