import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { McpServerSettings } from "@/server/domain/tools/mcp";
import { INTENT_REQUIRED_ERROR } from "@/server/governance/intent-gate";
import { sessionDispatch } from "@/server/runtime/session-runtime";
import type { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import type { Sandbox } from "@/server/sandbox/types";
import type { ToolCall, ToolDispatch } from "@/server/tools/dispatch";
import { cleanUp, makeBareRepo, PREFIX, testProvider } from "@/testing/sandbox/docker";
import {
  copyEverythingInto,
  EVERYTHING_IN_SANDBOX,
  EVERYTHING_PACKAGE,
} from "@/testing/sandbox/mcp-everything";
import { McpSessionTools } from "./session-tools";

/**
 * MCP through the one door with a real server from npm (`@modelcontextprotocol/server-everything`):
 * stdio inside a real Docker sandbox, and its Streamable HTTP mode on this machine. A project would
 * install the server in its setup phase (README "MCP tool servers"); to keep this test quick the
 * package from this checkout's node_modules is bundled into one file and copied into the sandbox.
 */

const INTENT = { id: "INT-001", ownedScope: ["src/**"] };
const ASK = { checkpoints: CheckpointPolicy.parse({}) };
const SESSION = `${PREFIX}-mcp`;
const AGENT_ACT = { stage: "act", mode: "agent", reasoning: "off" } as const;

let provider: DockerSandboxProvider;
let box: Sandbox;
let http: ChildProcess | null = null;
let httpPort = 0;
const opened: McpSessionTools[] = [];

beforeAll(async () => {
  provider = testProvider("mcp");
  box = await provider.create({ sessionId: SESSION, repoPath: makeBareRepo(true), branch: "arbor/mcp" });
  await copyEverythingInto(box);
  httpPort = await freePort();
  http = spawn(process.execPath, [EVERYTHING_PACKAGE, "streamableHttp"], {
    env: { ...process.env, PORT: String(httpPort) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the HTTP MCP server did not start")), 20_000);
    http?.stderr?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}, 600_000);

afterAll(async () => {
  await Promise.all(opened.map((tools) => tools.close()));
  http?.kill();
  await box?.dispose();
  await cleanUp(provider);
});

function sessionTools(servers: McpServerSettings[], allowList: string[] = []): McpSessionTools {
  const tools = new McpSessionTools({
    servers,
    startProcess: (argv) => provider.openProcess(SESSION, argv),
    allowList,
    callTimeoutMs: 20_000,
  });
  opened.push(tools);
  return tools;
}

function dispatchOver(tools: McpSessionTools): ToolDispatch {
  return sessionDispatch({
    sandbox: async () => box,
    policy: async () => ASK,
    commandTimeoutMs: 20_000,
    extraTool: (name) => tools.toolNamed(name),
  });
}

/** A person looks at what the gate asks about and approves exactly that call. */
async function approvedByPerson(dispatch: ToolDispatch, call: ToolCall) {
  const checked = await dispatch.check(call, { activeIntent: INTENT });
  expect(checked.status).toBe("ask");
  return dispatch.run(call, {
    activeIntent: INTENT,
    approval: { binding: checked.binding ?? "", approver: "Ada" },
  });
}

const STDIO: McpServerSettings = {
  name: "everything",
  config: { transport: "stdio", command: "node", args: [EVERYTHING_IN_SANDBOX, "stdio"] },
  stages: "act",
  toolRisks: { "get-sum": "safe", "get-env": "off" },
};

describe("an MCP server over stdio in the session's sandbox", () => {
  it("lists its tools, asks a person by default, refuses without an intent and when off", async () => {
    const tools = sessionTools([STDIO]);
    await tools.start();
    const [health] = tools.health();
    expect(health).toMatchObject({ name: "everything", ok: true, error: null });
    expect(health?.tools.map((tool) => tool.registryName)).toEqual(
      expect.arrayContaining(["mcp__everything__echo", "mcp__everything__get-sum"]),
    );
    // The program runs inside the sandbox, as the sandbox user, not on this machine.
    const inside = await box.exec("pgrep -u 1000 -f everything.mjs");
    expect(inside.stdout.trim()).not.toBe("");
    // get-env is off: the stage never offers it.
    const act = (await tools.toolsOfStage(AGENT_ACT)).map((tool) => tool.name);
    expect(act).toContain("mcp__everything__echo");
    expect(act).not.toContain("mcp__everything__get-env");
    // Offered in the act stage only (the project's choice): a looking stage and Chat get none.
    expect(await tools.toolsOfStage({ ...AGENT_ACT, stage: "discover" })).toEqual([]);
    expect(await tools.toolsOfStage({ ...AGENT_ACT, mode: "chat", stage: "discover" })).toEqual([]);

    const dispatch = dispatchOver(tools);
    const echo = { tool: "mcp__everything__echo", input: { message: "hello" } };
    const refused = await dispatch.run(echo, { activeIntent: null });
    expect(refused).toMatchObject({ status: "denied", error: { message: INTENT_REQUIRED_ERROR } });
    const unapproved = await dispatch.run(echo, { activeIntent: INTENT });
    expect(unapproved).toMatchObject({ status: "ask", error: { code: "needs_approval" } });
    const ran = await approvedByPerson(dispatch, echo);
    expect(ran).toMatchObject({ status: "ok", output: "Echo: hello" });
    expect(ran.binding).toMatch(/sha256:[0-9a-f]{64}$/);
    // A person's approval counts for that exact call only.
    const other = await dispatch.run(
      { tool: echo.tool, input: { message: "other" } },
      { activeIntent: INTENT, approval: { binding: ran.binding ?? "", approver: "Ada" } },
    );
    expect(other.status).toBe("ask");

    const sum = await dispatch.run(
      { tool: "mcp__everything__get-sum", input: { a: 2, b: 3 } },
      { activeIntent: null },
    );
    expect(sum.status).toBe("ok");
    expect(sum.output).toContain("5");
    const off = await dispatch.run({ tool: "mcp__everything__get-env", input: {} }, { activeIntent: INTENT });
    expect(off).toMatchObject({ status: "denied", error: { message: expect.stringContaining("turned") } });
  }, 120_000);

  it("a server that crashes mid-call gives a clear tool error; one that cannot start is named", async () => {
    const tools = sessionTools([
      { ...STDIO, toolRisks: { "trigger-long-running-operation": "safe", echo: "safe" } },
      {
        name: "missing",
        config: { transport: "stdio", command: "no-such-mcp-server", args: [] },
        stages: "act",
        toolRisks: {},
      },
    ]);
    await tools.start();
    const [everything, missing] = tools.health();
    expect(everything?.ok).toBe(true);
    expect(missing).toMatchObject({ ok: false, error: expect.stringContaining("did not start") });
    const dispatch = dispatchOver(tools);
    const call = dispatch.run(
      { tool: "mcp__everything__trigger-long-running-operation", input: { duration: 10, steps: 10 } },
      { activeIntent: null },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await box.exec("pkill -KILL -u 1000 -f everything.mjs");
    const crashed = await call;
    expect(crashed).toMatchObject({ status: "failed", error: { code: "mcp_failed" } });
    expect(crashed.error?.message).toMatch(/MCP server/);
    const after = await dispatch.run(
      { tool: "mcp__everything__echo", input: { message: "x" } },
      { activeIntent: null },
    );
    expect(after).toMatchObject({ status: "failed", error: { code: "mcp_failed" } });
    expect(tools.health()[0]?.ok).toBe(false);
  }, 120_000);
});

describe("an MCP server over Streamable HTTP", () => {
  const server = (): McpServerSettings => ({
    name: "remote",
    config: { transport: "http", url: `http://localhost:${httpPort}/mcp` },
    stages: "act",
    toolRisks: {},
  });

  it("is refused when its URL is not on the project's allow-list", async () => {
    const tools = sessionTools([server()], ["example.com"]);
    await tools.start();
    expect(tools.health()[0]).toMatchObject({ ok: false, error: expect.stringContaining("allow-list") });
  });

  it("on the allow-list: lists its tools and runs a call a person approved", async () => {
    const tools = sessionTools([server()], [`localhost:${httpPort}`]);
    await tools.start();
    expect(tools.health()[0]?.tools.map((tool) => tool.name)).toContain("echo");
    const ran = await approvedByPerson(dispatchOver(tools), {
      tool: "mcp__remote__echo",
      input: { message: "over http" },
    });
    expect(ran).toMatchObject({ status: "ok", output: "Echo: over http" });
  }, 60_000);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
