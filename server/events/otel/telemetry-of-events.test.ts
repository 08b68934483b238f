import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { cycle, decomposedRun, sequence } from "@/testing/events/events";
import { TelemetryOfEvents } from "./telemetry-of-events";
import type { TelemetryOp } from "./telemetry-ops";

const SESSION = "s1";

function opsOf(bodies: EventInput[], mapping = new TelemetryOfEvents()): TelemetryOp[] {
  return sequence(bodies).flatMap((event) => mapping.ops(SESSION, event));
}
const starts = (ops: TelemetryOp[]) => ops.flatMap((op) => (op.op === "start" ? [op] : []));
const ends = (ops: TelemetryOp[]) => ops.flatMap((op) => (op.op === "end" ? [op] : []));
const wholes = (ops: TelemetryOp[]) => ops.flatMap((op) => (op.op === "span" ? [op] : []));
const points = (ops: TelemetryOp[], metric: string) =>
  ops.flatMap((op) => ((op.op === "count" || op.op === "record") && op.metric === metric ? [op] : []));

const modelCall = (runId: string, intentionId: string | null): EventInput => ({
  type: "llm-called",
  runId,
  intentionId,
  stage: "act",
  modelId: "gpt-test",
  offline: false,
  tokensIn: 120,
  tokensOut: 30,
  latencyMs: 400,
  error: null,
  costUsd: 0.002,
});

describe("TelemetryOfEvents: the spans of a run", () => {
  it("nests intentions under the run and children under their parent, with the events' own times", () => {
    const ops = opsOf([
      ...decomposedRun("r1"),
      ...cycle("r1", "c1", "cy1", 0).slice(0, 4),
      {
        type: "intention-status-changed",
        runId: "r1",
        intentionId: "c1",
        status: "VERIFIED",
        reason: "ok",
        evidence: "red-to-green",
      },
      { type: "run-ended", runId: "r1", status: "VERIFIED", reason: "done" },
    ]);
    const started = starts(ops);
    expect(started.map((op) => [op.name, op.key, op.parentKey])).toEqual([
      ["invoke_agent Arbor", "run:r1", null],
      ["arbor.intention", "intention:r1:root", "run:r1"],
      ["arbor.approval", "approval:r1:ap1", "intention:r1:root"],
      ["arbor.intention", "intention:r1:c1", "intention:r1:root"],
      ["arbor.intention", "intention:r1:c2", "intention:r1:root"],
      ["execute_tool shell.exec", "cycle:r1:cy1", "intention:r1:c1"],
    ]);
    expect(started[0]?.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "arbor.session.id": SESSION,
      "arbor.run.id": "r1",
      "arbor.run.mode": "agent",
      "gen_ai.request.model": "offline-heuristics",
    });
    // sequence() stamps event i at second i of 2026-11-22: the run starts with its second event.
    expect(started[0]?.startMs).toBe(Date.UTC(2026, 10, 22, 0, 0, 1));
    const ended = ends(ops);
    expect(ended.find((op) => op.key === "cycle:r1:cy1")).toMatchObject({
      attributes: { "arbor.tool.outcome": "ok", "arbor.exit_code": 0 },
      error: null,
    });
    expect(ended.find((op) => op.key === "intention:r1:c1")?.attributes).toEqual({
      "arbor.intention.status": "VERIFIED",
      "arbor.evidence.kind": "red-to-green",
    });
    // The run's end closes what was still open (root and c2), children before the run.
    expect(ended.slice(-3).map((op) => op.key)).toEqual(["intention:r1:c2", "intention:r1:root", "run:r1"]);
    expect(ended.at(-1)?.attributes).toEqual({ "arbor.run.status": "VERIFIED" });
    expect(points(ops, "arbor.verifications")).toEqual([
      {
        op: "count",
        metric: "arbor.verifications",
        value: 1,
        attributes: { "arbor.evidence.kind": "red-to-green" },
      },
    ]);
    expect(points(ops, "arbor.runs")[0]?.attributes).toEqual({ "arbor.run.status": "VERIFIED" });
  });

  it("makes a model call a chat span under its intention, with tokens, cost and latency, and counts them", () => {
    const ops = opsOf([...decomposedRun("r1"), modelCall("r1", "c1"), modelCall("r1", null)]);
    const [underIntention, underRun] = wholes(ops);
    expect(underIntention).toMatchObject({
      name: "chat gpt-test",
      parentKey: "intention:r1:c1",
      endMs: Date.UTC(2026, 10, 22, 0, 0, 10),
      startMs: Date.UTC(2026, 10, 22, 0, 0, 10) - 400,
      error: null,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-test",
        "gen_ai.usage.input_tokens": 120,
        "gen_ai.usage.output_tokens": 30,
        "arbor.stage": "act",
        "arbor.cost_usd": 0.002,
        "arbor.model.latency_ms": 400,
      },
    });
    expect(underRun?.parentKey).toBe("run:r1");
    expect(
      points(ops, "arbor.model.tokens").map((op) => [op.attributes["gen_ai.token.type"], op.value]),
    ).toEqual([
      ["input", 120],
      ["output", 30],
      ["input", 120],
      ["output", 30],
    ]);
    expect(points(ops, "arbor.model.cost").map((op) => op.value)).toEqual([0.002, 0.002]);
    expect(points(ops, "gen_ai.client.operation.duration")[0]?.value).toBe(0.4);
  });

  it("times an approval's wait and counts its decision", () => {
    const ops = opsOf(decomposedRun("r1"));
    // Requested at second 6, decided at second 7 (sequence() stamps one event a second).
    expect(points(ops, "arbor.approval.wait")).toEqual([
      {
        op: "record",
        metric: "arbor.approval.wait",
        value: 1,
        attributes: { "arbor.approval.kind": "decomposition", "arbor.approval.decision": "approved" },
      },
    ]);
    expect(points(ops, "arbor.approvals")).toHaveLength(1);
    expect(ends(ops).find((op) => op.key === "approval:r1:ap1")?.attributes).toMatchObject({
      "arbor.approval.decision": "approved",
    });
  });

  it("makes tool calls and checks spans with tool, risk and outcome, and counts checks by phase and status", () => {
    const ops = opsOf([
      ...decomposedRun("r1"),
      {
        type: "tool-called",
        runId: "r1",
        intentionId: "c1",
        cycleIndex: 0,
        tool: "fs.read",
        input: '{"path":"secret.env"}',
        status: "ok",
        output: "API_KEY=hunter2",
        durationMs: 12,
      },
      {
        type: "tool-called",
        runId: "r1",
        intentionId: "c1",
        cycleIndex: 0,
        tool: "rm -rf /",
        input: "",
        status: "invalid",
        output: "",
        durationMs: 0,
      },
      {
        type: "check-ran",
        runId: "r1",
        intentionId: "c1",
        cycleId: null,
        phase: "baseline",
        command: "npm test -- --token=hunter2",
        binding: null,
        status: "failed",
        exitCode: 1,
        gate: "policy",
        durationMs: 900,
      },
    ]);
    const [read, invented, check] = wholes(ops);
    expect(read).toMatchObject({
      name: "execute_tool fs.read",
      parentKey: "intention:r1:c1",
      attributes: { "gen_ai.tool.name": "fs.read", "arbor.tool.risk": "safe", "arbor.tool.outcome": "ok" },
    });
    // A name outside the catalogue is not repeated (the model wrote it).
    expect(invented).toMatchObject({ name: "execute_tool unknown", error: "tool call invalid" });
    expect(check).toMatchObject({
      name: "arbor.check",
      attributes: { "arbor.check.phase": "baseline", "arbor.check.status": "failed", "arbor.exit_code": 1 },
    });
    expect(points(ops, "arbor.checks")[0]?.attributes).toEqual({
      "arbor.check.phase": "baseline",
      "arbor.check.status": "failed",
    });
    // Ids, names and counts only: no input, output, command, task or thought reaches an attribute.
    const everything = JSON.stringify(ops);
    for (const content of ["hunter2", "secret.env", "rm -rf", "npm test", "run `a` and run `b`", "two parts"])
      expect(everything).not.toContain(content);
  });

  it("gives a run it never saw start (resumed after a restart) a span, and none to events after its end", () => {
    const mapping = new TelemetryOfEvents();
    const resumed = opsOf([modelCall("r9", null)], mapping);
    expect(starts(resumed)[0]).toMatchObject({ key: "run:r9", attributes: { "arbor.run.resumed": true } });
    expect(wholes(resumed)[0]?.parentKey).toBe("run:r9");
    const after = opsOf(
      [
        { type: "run-ended", runId: "r9", status: "FAILED", reason: "limit" },
        { type: "message-posted", messageId: "m9", runId: "r9", role: "agent", text: "sorry" },
      ],
      mapping,
    );
    expect(ends(after)).toEqual([
      {
        op: "end",
        key: "run:r9",
        endMs: expect.any(Number),
        attributes: { "arbor.run.status": "FAILED" },
        error: "run failed",
      },
    ]);
    expect(starts(after)).toEqual([]);
    // A run ended right after a restart (no span here) still counts as ended.
    const unseen = opsOf([{ type: "run-ended", runId: "r8", status: "STOPPED", reason: "stop" }], mapping);
    expect(unseen).toEqual([
      { op: "count", metric: "arbor.runs", value: 1, attributes: { "arbor.run.status": "STOPPED" } },
    ]);
  });
});
