import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { latestOutcome, reflectionOf, warmupOf } from "@/server/domain/session/fold-reasoning";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import { discovered, model, sequence } from "@/testing/events/events";
import { nextStep } from "../decide/next-step";
import { actCarry, afterActEvents, cappedReads, MAX_WARMUP_READS, reasoningEvent } from "./reasoning";

const START = Date.UTC(2026, 10, 22);

function started(mode: "agent" | "chat", reasoning: "on" | "off"): EventInput[] {
  return [
    { type: "run-started", runId: "run-1", task: "run `ls`", mode, reasoning, model },
    discovered("run-1"),
    {
      type: "intention-created",
      runId: "run-1",
      intentionId: "root",
      parentId: null,
      what: "run `ls`",
      acceptance: "",
      depth: 0,
      position: 0,
    },
  ];
}

const warmupText = [
  "<ide_reasoning>",
  "- **Analyze**: PRIVATE-ANALYSIS of the request",
  "- **Plan**: list the files",
  "- **Reflect**: none",
  "- **Action**: run ls",
  "- **Delivery**: NEEDS_WORK",
  "</ide_reasoning>",
].join("\n");
const warmed = reasoningEvent("run-1", { intentionId: "root" }, "macro", warmupText, model);

const view = (bodies: EventInput[]) => foldEvents(sequence(bodies));
const step = (bodies: EventInput[]) =>
  nextStep(view(bodies), "run-1", { limits: DEFAULT_LIMITS, now: START + 60_000 });

describe("the warmup step", () => {
  it("comes after discovery in Agent mode with reasoning on, once", () => {
    expect(step(started("agent", "on"))).toMatchObject({ kind: "warmup", root: { id: "root" } });
    expect(step([...started("agent", "on"), warmed])).toMatchObject({ kind: "plan" });
  });

  it("never runs with the switch off", () => {
    expect(step(started("agent", "off"))).toMatchObject({ kind: "plan" });
  });
});

describe("the warmup's reads", () => {
  it("pass through the act step's port, at most MAX_WARMUP_READS; past it a read is refused in words", async () => {
    const ran: string[] = [];
    const port = {
      maxReads: 8,
      run: async (call: { tool: string }) => {
        ran.push(call.tool);
        return `read ${call.tool}`;
      },
    };
    const capped = cappedReads(port, MAX_WARMUP_READS);
    expect(capped.maxReads).toBe(4);
    const answers: string[] = [];
    for (let index = 0; index < 6; index++) answers.push(await capped.run({ tool: "fs.read", input: {} }));
    expect(ran).toHaveLength(4);
    expect(answers.slice(0, 4)).toEqual(Array(4).fill("read fs.read"));
    expect(answers.slice(4)).toEqual(Array(2).fill("No reads left in the warmup: write your reasoning now."));
  });

  it("never exceed the port's own cap", () => {
    expect(cappedReads({ maxReads: 2, run: async () => "" }, MAX_WARMUP_READS).maxReads).toBe(2);
  });
});

describe("what the act turn carries and records", () => {
  it("carries the newest compact outcome with reasoning on, never the full text", () => {
    const folded = view([...started("agent", "on"), warmed]);
    const run = folded.runs["run-1"];
    expect(run && warmupOf(run)?.text).toContain("PRIVATE-ANALYSIS");
    const carry = actCarry(folded, "run-1", folded.intentions.root ?? expect.fail("no root"));
    expect(carry.reasoning).toEqual({
      plan_delta: "list the files",
      next_action: "run ls",
      known_risks: "none",
      delivery_state: "NEEDS_WORK",
    });
    expect(JSON.stringify(carry)).not.toContain("PRIVATE-ANALYSIS");
    expect(carry.failedTool).toBeNull();
  });

  it("carries nothing with reasoning off", () => {
    const folded = view([...started("agent", "off"), warmed]);
    expect(
      actCarry(folded, "run-1", folded.intentions.root ?? expect.fail("no root")).reasoning,
    ).toBeUndefined();
  });

  it("records the reflection with the cycle it leads to, and the turn's corrections", () => {
    const folded = view(started("agent", "on"));
    const root = folded.intentions.root ?? expect.fail("no root");
    const call = {
      stage: "act" as const,
      modelId: "m",
      offline: false,
      tokensIn: 1,
      tokensOut: 1,
      latencyMs: 1,
      corrections: [{ kind: "empty-response" as const, prompt: "correct-empty-response", problem: "empty" }],
    };
    const host = {
      runId: "run-1",
      request: () => ({ runId: "run-1", mode: "agent" as const, reasoning: "on" as const }),
    };
    const events = afterActEvents(host, root, { call, reasoning: "- **Next action**: ls" }, model);
    expect(events.map((event) => event.type)).toEqual(["correction-applied", "reasoning-recorded"]);
    const after = view([...started("agent", "on"), ...events]);
    const run = after.runs["run-1"] ?? expect.fail("no run");
    expect(reflectionOf(run, "root", 0)?.outcome.next_action).toBe("ls");
    expect(latestOutcome(run)?.next_action).toBe("ls");
    expect(run.corrections).toMatchObject([{ kind: "empty-response", stage: "act", intentionId: "root" }]);
    const off = {
      ...host,
      request: () => ({ runId: "run-1", mode: "agent" as const, reasoning: "off" as const }),
    };
    expect(afterActEvents(off, root, { call, reasoning: "text" }, model).map((event) => event.type)).toEqual([
      "correction-applied",
    ]);
  });

  it("tells the retry which tool failed and how", () => {
    const bodies: EventInput[] = [
      ...started("agent", "off"),
      {
        type: "decision-made",
        runId: "run-1",
        intentionId: "root",
        decision: "verify-directly",
        reason: "x",
      },
      {
        type: "cycle-started",
        runId: "run-1",
        intentionId: "root",
        cycleId: "c1",
        index: 0,
        thought: "",
        action: { type: "COMMAND", content: "ls /nope", target: null },
      },
      {
        type: "cycle-result",
        runId: "run-1",
        intentionId: "root",
        cycleId: "c1",
        exitCode: 2,
        output: "ls: cannot access '/nope'",
        timedOut: false,
        error: null,
        durationMs: 1,
      },
      {
        type: "cycle-judged",
        runId: "run-1",
        intentionId: "root",
        cycleId: "c1",
        judgment: "FAILURE",
        judgedBy: "auto",
        reason: "exit code 2",
      },
    ];
    const folded = view(bodies);
    const carry = actCarry(folded, "run-1", folded.intentions.root ?? expect.fail("no root"));
    expect(carry.failedTool?.tool).toBe("shell.exec");
    expect(carry.failedTool?.error).toContain("exit code 2");
    expect(carry.failedTool?.error).toContain("cannot access '/nope'");
  });
});
