import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { McpServerSettings } from "@/server/domain/tools/mcp";
import { EventStore } from "@/server/events/store";
import type { SandboxProvider } from "@/server/sandbox/types";
import { McpSessions } from "@/server/tools/mcp/sessions";
import { ofType } from "@/testing/events/events";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import { copyEverythingInto, EVERYTHING_IN_SANDBOX } from "@/testing/sandbox/mcp-everything";

/**
 * Issue #21.2 in a whole run with every real part (SQLite, the Docker sandbox, the AI SDK over HTTP
 * to the fake model server, the real `@modelcontextprotocol/server-everything` over stdio inside the
 * session's sandbox): the model calls `mcp__everything__get-sum`, the call waits for a person, is
 * approved, runs, and its result reaches the model's next request and the event log. A second server
 * whose program exits at once is a line in the run, and the run goes on without it.
 */
const world = orchestratorWorld({ repoName: "McpRun", fakeModel: true });

const EVERYTHING: McpServerSettings = {
  name: "everything",
  config: { transport: "stdio", command: "node", args: [EVERYTHING_IN_SANDBOX, "stdio"] },
  stages: "act",
  toolRisks: {},
};
const BROKEN: McpServerSettings = {
  name: "broken",
  config: { transport: "stdio", command: "false", args: [] },
  stages: "act",
  toolRisks: {},
};

/** The app's McpSessions over the test's sandboxes; the server's file is copied in before it starts. */
function mcpSessions(servers: McpServerSettings[] = [EVERYTHING, BROKEN]) {
  const { sandboxes } = world;
  const withServerCopied = {
    openProcess: async (sessionId: string, argv: readonly string[]) => {
      const box = await sandboxes.get(sessionId);
      if (!box) throw new Error("no sandbox");
      await copyEverythingInto(box);
      return sandboxes.openProcess(sessionId, argv);
    },
  } as unknown as SandboxProvider;
  return new McpSessions({
    settingsOf: async () => ({ projectId: "p1", servers, allowList: [] }),
    sandboxes: withServerCopied,
    callTimeoutMs: 20_000,
  });
}

describe("a run whose model calls a project's MCP tool", () => {
  it("asks a person, runs the approved call, and the result reaches the model and the log", async () => {
    const mcp = mcpSessions();
    const orch = world.orchestrator({
      model: world.scriptedModel("default"),
      checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto" }),
      mcpToolsOf: (sessionId) => mcp.forSession(sessionId),
    });
    const before = world.fakeModel.requests.length;
    try {
      const { runId } = await orch.startRun({
        sessionId: world.sessionId,
        // The check fails once (after the MCP call), so the model is asked again, with the result.
        task: "sum two numbers with the project's MCP tool (mcp-sum), checked by `test -e /tmp/mcp-flag || ! touch /tmp/mcp-flag`",
        mode: "agent",
        actor: world.actor,
      });
      // The approval card's facts: the MCP tool by its registry name, with the model's input.
      let approval = await world.waitForApproval();
      while (approval.kind !== "tool") {
        await orch.decide({
          sessionId: world.sessionId,
          approvalId: approval.id,
          decision: "approved",
          reason: null,
          actor: world.actor,
        });
        approval = await world.waitForApproval("tool");
      }
      const view = await world.view();
      expect(view.approvals[approval.id]).toMatchObject({
        kind: "tool",
        call: { tool: "mcp__everything__get-sum", input: { a: 2, b: 3 } },
      });
      const beforeApproval = world.fakeModel.requests.length;
      await orch.decide({
        sessionId: world.sessionId,
        approvalId: approval.id,
        decision: "approved",
        reason: null,
        actor: world.actor,
      });
      await world.approveUntilEnded(orch, runId);

      const events = (await new EventStore(world.db).read(world.sessionId)).flatMap((event) =>
        "runId" in event.body && event.body.runId === runId ? [event] : [],
      );
      // The tool cycle in the log: the MCP call, its result.
      const started = ofType(events, "cycle-started").find((cycle) =>
        JSON.stringify(cycle).includes("mcp__everything__get-sum"),
      );
      expect(started, JSON.stringify(ofType(events, "cycle-started"))).toBeDefined();
      const result = ofType(events, "cycle-result").find((cycle) =>
        JSON.stringify(cycle).includes("The sum of 2 and 3 is 5"),
      );
      expect(result, JSON.stringify(ofType(events, "cycle-result"))).toBeDefined();
      // The model saw the result in its next request of the step (the retry after the failed check).
      const nextAct = world.fakeModel.requests
        .slice(beforeApproval)
        .map((request) => JSON.stringify(request.body))
        .find((body) => body.includes("shell_exec"));
      expect(nextAct).toContain("The sum of 2 and 3 is 5");
      expect(nextAct).toContain("mcp__everything__get-sum");
      // The act requests offered the MCP tools (with their JSON Schema) next to the catalogue's.
      const offered = world.fakeModel.requests
        .slice(before)
        .map((request) => JSON.stringify(request.body))
        .filter((body) => body.includes("shell_exec"));
      expect(offered[0]).toContain("mcp__everything__get-sum");
      // The server that could not start is one line in the run, which went on without it.
      const notices = ofType(events, "message-posted").filter((message) =>
        message.text.startsWith("The MCP server broken could not start"),
      );
      expect(notices).toHaveLength(1);
      expect(notices[0]?.text).toContain("This run goes on without its tools.");
      expect(offered[0]).not.toContain("mcp__broken__");
    } finally {
      await mcp.close(world.sessionId);
    }
  });

  it("in Chat mode offers only the tools marked Safe, and runs one without asking anybody", async () => {
    const looking = { ...EVERYTHING, stages: "looking" as const, toolRisks: { "get-sum": "safe" as const } };
    const mcp = mcpSessions([looking]);
    const orch = world.orchestrator({
      model: world.scriptedModel("default"),
      mcpToolsOf: (sessionId) => mcp.forSession(sessionId),
    });
    const before = world.fakeModel.requests.length;
    try {
      const { runId } = await orch.startRun({
        sessionId: world.sessionId,
        task: "what is the sum of two numbers (mcp-sum)?",
        mode: "chat",
        actor: world.actor,
      });
      await world.approveUntilEnded(orch, runId);
      const events = (await new EventStore(world.db).read(world.sessionId)).flatMap((event) =>
        "runId" in event.body && event.body.runId === runId ? [event] : [],
      );
      expect(ofType(events, "run-ended")[0]?.status).toBe("ANSWERED");
      const called = ofType(events, "answer-tool-called").find(
        (call) => call.tool === "mcp__everything__get-sum",
      );
      expect(called).toMatchObject({ status: "ok" });
      expect(called?.summary).toContain("The sum of 2 and 3 is 5");
      expect(ofType(events, "approval-requested")).toEqual([]);
      // Offered: the Safe tool; never the ones that ask (echo and the rest, default Ask).
      const first = JSON.stringify(world.fakeModel.requests[before]?.body);
      expect(first).toContain("mcp__everything__get-sum");
      expect(first).not.toContain("mcp__everything__echo");
    } finally {
      await mcp.close(world.sessionId);
    }
  });
});
