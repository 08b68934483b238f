import type { EventOf } from "@/server/domain/events/schema";
import { riskOf } from "@/server/domain/tools/catalogue";
import type { Attributes, TelemetryOp } from "./telemetry-ops";

/**
 * The events that are a whole span by themselves (their duration is in the event, they end at its
 * time): model calls, read-only tool calls and contract checks, plus the criteria's counts. Where the
 * span hangs (`parentKey`) is the caller's to say; nothing here remembers anything.
 */

/** A tool's name as reported, or "unknown" for a name outside the catalogue (the model may invent one). */
export function toolName(name: string | null): string {
  const tool = name ?? "shell.exec";
  return riskOf(tool) === null ? "unknown" : tool;
}

export function toolAttributes(tool: string, kind: string): Attributes {
  return {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": tool,
    "arbor.tool.risk": riskOf(tool) ?? "unknown",
    "arbor.tool.kind": kind,
  };
}

export function modelCallOps(
  call: { sessionId: string; parentKey: string; provider: string; atMs: number },
  body: EventOf<"llm-called">,
): TelemetryOp[] {
  const { sessionId, parentKey, provider, atMs } = call;
  const common = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": provider,
    "gen_ai.request.model": body.modelId,
    "arbor.stage": body.stage,
  };
  const cost: Attributes = body.costUsd === null ? {} : { "arbor.cost_usd": body.costUsd };
  const out: TelemetryOp[] = [
    {
      op: "span",
      parentKey,
      name: `chat ${body.modelId}`,
      startMs: atMs - body.latencyMs,
      endMs: atMs,
      attributes: {
        ...common,
        "gen_ai.conversation.id": sessionId,
        "gen_ai.usage.input_tokens": body.tokensIn,
        "gen_ai.usage.output_tokens": body.tokensOut,
        "arbor.run.id": body.runId,
        "arbor.model.offline": body.offline,
        "arbor.model.latency_ms": body.latencyMs,
        "arbor.model.tool_count": body.toolCount,
        ...(body.role === null ? {} : { "arbor.role": body.role }),
        ...(body.intentionId === null ? {} : { "arbor.intention.id": body.intentionId }),
        ...cost,
      },
      // The error's kind only: its message may quote the provider's answer.
      error: body.error === null ? null : "model call failed",
    },
    {
      op: "record",
      metric: "gen_ai.client.operation.duration",
      value: body.latencyMs / 1000,
      attributes: common,
    },
  ];
  for (const [type, value] of [
    ["input", body.tokensIn],
    ["output", body.tokensOut],
  ] as const) {
    const attributes = { ...common, "gen_ai.token.type": type };
    out.push({ op: "record", metric: "gen_ai.client.token.usage", value, attributes });
    out.push({ op: "count", metric: "arbor.model.tokens", value, attributes });
  }
  if (body.costUsd !== null && body.costUsd > 0)
    out.push({ op: "count", metric: "arbor.model.cost", value: body.costUsd, attributes: common });
  return out;
}

/** A read-only call in the act turn ("read") or while answering ("answer"). */
export function toolCallOps(
  call: { runId: string; parentKey: string; atMs: number; kind: "read" | "answer" },
  reported: { tool: string; status: string; durationMs: number },
): TelemetryOp[] {
  const tool = toolName(reported.tool);
  const attributes = { ...toolAttributes(tool, call.kind), "arbor.tool.outcome": reported.status };
  return [
    {
      op: "span",
      parentKey: call.parentKey,
      name: `execute_tool ${tool}`,
      startMs: call.atMs - reported.durationMs,
      endMs: call.atMs,
      attributes: { ...attributes, "arbor.run.id": call.runId },
      error: reported.status === "ok" ? null : `tool call ${reported.status}`,
    },
    { op: "count", metric: "arbor.tool_calls", value: 1, attributes },
  ];
}

export function checkOps(parentKey: string, body: EventOf<"check-ran">, atMs: number): TelemetryOp[] {
  const attributes = { "arbor.check.phase": body.phase, "arbor.check.status": body.status };
  return [
    {
      op: "span",
      parentKey,
      name: "arbor.check",
      startMs: atMs - body.durationMs,
      endMs: atMs,
      attributes: {
        ...attributes,
        "arbor.run.id": body.runId,
        "arbor.intention.id": body.intentionId,
        ...(body.cycleId === null ? {} : { "arbor.cycle.id": body.cycleId }),
        ...(body.exitCode === null ? {} : { "arbor.exit_code": body.exitCode }),
      },
      // A red check is an answer, not an error (a baseline is meant to be red).
      error: null,
    },
    { op: "count", metric: "arbor.checks", value: 1, attributes },
  ];
}

export function criteriaOps(body: EventOf<"criteria-checked">): TelemetryOp[] {
  return body.results.map((result) => ({
    op: "count",
    metric: "arbor.criteria",
    value: 1,
    attributes: {
      "arbor.criterion.kind": result.criterion.kind,
      "arbor.criterion.outcome":
        result.couldNotRun !== undefined ? "could-not-run" : result.passed ? "passed" : "failed",
    },
  }));
}
