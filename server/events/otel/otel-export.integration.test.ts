import { type AddressInfo, createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventStore } from "@/server/events/store";
import { AiSdkModel } from "@/server/model";
import { createPricer } from "@/server/model/pricing";
import { decomposedRun, sequence } from "@/testing/events/events";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "@/testing/otel/receiver";
import { type OtelExport, startOtelExport } from "./otel-export";
import { runTraceIds } from "./run-trace-ids";

/**
 * Issue #21.5 end to end: a real run (SQLite, Docker, the AI SDK talking HTTP to the fake model
 * server) with the OpenTelemetry export fed by the event store, sent by the official SDK over
 * OTLP/HTTP to a local receiver that decodes what arrived.
 */
const world = orchestratorWorld({ repoName: "Telemetry", fakeModel: true });
let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const exportTo = (endpoint: string, onError: (error: unknown) => void = () => undefined): OtelExport =>
  startOtelExport({
    endpoint,
    headers: { "x-arbor-test": "grafana-key" },
    serviceName: "arbor-test",
    metricIntervalMs: 60_000,
    onError,
  });

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);

describe("OpenTelemetry export of a real run", () => {
  it("sends the run's spans (run → intentions → model and tool calls) and its metrics to an OTLP/HTTP receiver", async () => {
    const telemetry = exportTo(receiver.url);
    const orch = world.orchestrator({
      log: new EventStore(
        world.db,
        () => [],
        null,
        (sessionId, events) => telemetry.observe(sessionId, events),
      ),
      model: new AiSdkModel({ baseUrl: world.fakeModel.url, modelName: "fake", timeoutMs: 10_000 }),
      priceOf: createPricer({ fake: { inputPer1M: 1, outputPer1M: 2 } }),
    });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `cat /etc/arbor-sandbox` and then run `ls README.md`",
      mode: "agent",
      actor: world.actor,
    });
    expect(await world.approveUntilEnded(orch, runId)).toEqual(["decomposition"]);
    // Shutting down sends what is queued: the spans, and one export of the metrics (cumulative sums).
    await telemetry.shutdown();

    const spans = receiver.spans;
    const [run] = byName(spans, "invoke_agent Arbor");
    expect(run).toMatchObject({
      parentSpanId: null,
      service: "arbor-test",
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "arbor.run.id": runId,
        "arbor.session.id": world.sessionId,
        "arbor.run.mode": "agent",
        "arbor.run.status": "VERIFIED",
      },
    });
    if (!run) throw new Error("no run span arrived");
    // One trace; every span hangs (directly or not) under the run, inside its time.
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([run.traceId]));
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    for (const span of spans) {
      expect(span.startMs).toBeGreaterThanOrEqual(run.startMs - 60_000);
      expect(span.endMs).toBeLessThanOrEqual(run.endMs);
      if (span !== run) expect(byId.has(span.parentSpanId ?? "")).toBe(true);
    }

    const intentions = byName(spans, "arbor.intention");
    const root = intentions.find((span) => span.attributes["arbor.intention.depth"] === 0);
    const children = intentions.filter((span) => span.attributes["arbor.intention.depth"] === 1);
    expect(root?.parentSpanId).toBe(run.spanId);
    expect(children.map((span) => [span.parentSpanId, span.attributes["arbor.intention.status"]])).toEqual([
      [root?.spanId, "VERIFIED"],
      [root?.spanId, "VERIFIED"],
    ]);
    expect(children.every((span) => typeof span.attributes["arbor.evidence.kind"] === "string")).toBe(true);

    // Model calls: the stages the run asked, each with tokens, cost and the model's name.
    const calls = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");
    expect(calls.map((span) => span.attributes["arbor.stage"]).sort()).toEqual(
      ["act", "act", "contract", "decompose", "delivery_check", "discover"].sort(),
    );
    const act = calls.find((span) => span.attributes["arbor.stage"] === "act");
    expect(act?.name).toMatch(/^chat .*fake/);
    expect(children.map((span) => span.spanId)).toContain(act?.parentSpanId);
    expect(act?.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
    expect(act?.attributes["arbor.cost_usd"]).toBeGreaterThan(0);

    // Each child's action is a tool span under it, with the tool, its risk and how it ended.
    const actions = spans.filter((span) => span.attributes["arbor.tool.kind"] === "action");
    expect(
      actions.map((span) => [
        span.name,
        span.attributes["arbor.tool.risk"],
        span.attributes["arbor.tool.outcome"],
      ]),
    ).toEqual([
      ["execute_tool shell.exec", expect.any(String), "ok"],
      ["execute_tool shell.exec", expect.any(String), "ok"],
    ]);
    expect(new Set(actions.map((span) => span.parentSpanId))).toEqual(
      new Set(children.map((span) => span.spanId)),
    );
    const approval = byName(spans, "arbor.approval")[0];
    expect(approval).toMatchObject({
      parentSpanId: root?.spanId,
      attributes: { "arbor.approval.kind": "decomposition", "arbor.approval.decision": "approved" },
    });
    // No command, task or output text in any attribute.
    expect(JSON.stringify(spans)).not.toMatch(/arbor-sandbox|README\.md|cat \/etc/);

    // Metrics, sent at shutdown: tokens by type, cost, the approval and its wait, the runs, verifications.
    const sum = (metric: string, where: Record<string, string> = {}) =>
      receiver.points
        .filter(
          (point) =>
            point.metric === metric &&
            Object.entries(where).every(([key, value]) => point.attributes[key] === value),
        )
        .reduce((total, point) => total + point.value, 0);
    const inputTokens = calls.reduce(
      (total, span) => total + Number(span.attributes["gen_ai.usage.input_tokens"]),
      0,
    );
    expect(sum("arbor.model.tokens", { "gen_ai.token.type": "input" })).toBe(inputTokens);
    expect(sum("arbor.model.cost")).toBeGreaterThan(0);
    expect(
      sum("arbor.approvals", {
        "arbor.approval.kind": "decomposition",
        "arbor.approval.decision": "approved",
      }),
    ).toBe(1);
    expect(receiver.points.find((point) => point.metric === "arbor.approval.wait")).toMatchObject({
      unit: "s",
      count: 1,
    });
    expect(sum("arbor.runs", { "arbor.run.status": "VERIFIED" })).toBe(1);
    expect(sum("arbor.verifications")).toBeGreaterThanOrEqual(2);
    expect(sum("arbor.tool_calls", { "arbor.tool.kind": "action", "arbor.tool.outcome": "ok" })).toBe(2);
    // The configured headers went with every request.
    expect(receiver.headers.every((headers) => headers["x-arbor-test"] === "grafana-key")).toBe(true);
  });

  it("continues a run resumed after a restart in the same trace, under the same root", async () => {
    const own = await startOtlpReceiver();
    const call = (seconds: number) => ({
      type: "llm-called" as const,
      runId: "run-r",
      intentionId: null,
      stage: "act",
      modelId: "fake",
      offline: false,
      tokensIn: 10,
      tokensOut: 5,
      latencyMs: seconds * 1_000,
      error: null,
    });
    const events = sequence([
      ...decomposedRun("run-r").slice(1, 3),
      call(1),
      call(2),
      { type: "run-ended", runId: "run-r", status: "VERIFIED", reason: "done" },
    ]);
    // The first server maps the start and one model call, then goes away with the run's root still
    // open (a root is sent when it ends, so it never leaves this process).
    const before = exportTo(own.url);
    before.observe("s-restart", events.slice(0, 3));
    await before.shutdown();
    const [first] = own.spans;
    expect(own.spans).toHaveLength(1);
    // The next server (nothing in memory) resumes the run: its events continue the same trace.
    const after = exportTo(own.url);
    after.observe("s-restart", events.slice(3));
    await after.shutdown();
    await own.close();

    const ids = runTraceIds("run-r");
    const [root] = byName(own.spans, "invoke_agent Arbor");
    expect(root).toMatchObject({ traceId: ids.traceId, spanId: ids.spanId, parentSpanId: null });
    expect(root?.attributes["arbor.run.resumed"]).toBe(true);
    const calls = byName(own.spans, "chat fake");
    expect(calls).toHaveLength(2);
    expect(calls[0]).toBe(first);
    for (const span of calls) expect(span).toMatchObject({ traceId: ids.traceId, parentSpanId: ids.spanId });
  });

  it("never makes an append wait for a collector that accepts connections and never answers", async () => {
    // A socket that takes the request and says nothing: the worst collector there is.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const telemetry = exportTo(`http://127.0.0.1:${port}`);
    const bodies = Array.from({ length: 1_000 }, (_, index) => ({
      type: "llm-called" as const,
      runId: `r${index % 20}`,
      intentionId: null,
      stage: "act",
      modelId: "fake",
      offline: false,
      tokensIn: 10,
      tokensOut: 5,
      latencyMs: 100,
      error: null,
    }));
    const events = sequence(bodies);
    const started = performance.now();
    for (let index = 0; index < events.length; index += 50)
      telemetry.observe("s-silent", events.slice(index, index + 50));
    // A thousand events mapped and handed to the queue in a fraction of one export's 10 s time limit:
    // the exports waiting on the silent collector are never waited for (about 0.5 s here, cold, on a
    // busy machine).
    expect(performance.now() - started).toBeLessThan(2_500);
    for (const socket of sockets) socket.destroy();
    silent.close();
  });
});
