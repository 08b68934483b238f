import "server-only";
import { z } from "zod";
import { errorMessage } from "@/server/domain/errors";
import { type McpServerSettings, mcpToolName, mcpToolRisk, stagesOfChoice } from "@/server/domain/tools/mcp";
import type { ReasoningSwitch, Stage, UserMode } from "@/server/domain/vocabulary/stages";
import { mcpToolOffered } from "@/server/policy/stages/mcp-offer";
import type { SandboxProcess } from "@/server/sandbox/types";
import type { ToolDefinition } from "../types";
import { McpConnection, type McpListedTool } from "./connection";

/**
 * A session's MCP servers: each of the project's servers connected once (stdio in the session's
 * sandbox, HTTP from the server), its tools turned into registry entries named
 * `mcp__<server>__<tool>` with the project's risk for each, for the dispatch (`extraTool`). A server
 * that fails to start is a health entry with its error, and the session goes on without its tools.
 */

/** What the settings page and the session show of one server. */
export interface McpServerHealth {
  name: string;
  ok: boolean;
  /** Why it could not start, or why it stopped. */
  error: string | null;
  tools: { name: string; registryName: string | null; description: string }[];
}

export interface McpSessionToolsOptions {
  servers: readonly McpServerSettings[];
  /** Starts a stdio server's program in the session's sandbox (SandboxProvider.openProcess). */
  startProcess(argv: readonly string[]): Promise<SandboxProcess>;
  allowList: readonly string[];
  /** Each call's time limit (the session's command time limit). */
  callTimeoutMs: number;
  startTimeoutMs?: number;
}

/** The request a stage is about to send: which stage, and the person's mode and switch. */
export interface McpRequestFacts {
  stage: Stage;
  mode: UserMode;
  reasoning: ReasoningSwitch;
}

/** The model's input is an object, checked against the tool's own schema by its server. */
const McpInput = z.record(z.string(), z.unknown());

export class McpSessionTools {
  private readonly connections = new Map<string, McpConnection>();
  private readonly failures = new Map<string, string>();
  private started: Promise<void> | null = null;

  constructor(private readonly options: McpSessionToolsOptions) {}

  /** Connects every server (once; later calls wait for the first). Never throws. */
  start(): Promise<void> {
    this.started ??= Promise.all(
      this.options.servers.map(async (server) => {
        try {
          const connection = await McpConnection.open({
            config: server.config,
            startProcess: this.options.startProcess,
            allowList: this.options.allowList,
            ...(this.options.startTimeoutMs ? { startTimeoutMs: this.options.startTimeoutMs } : {}),
          });
          this.connections.set(server.name, connection);
        } catch (error) {
          this.failures.set(server.name, errorMessage(error));
        }
      }),
    ).then(() => undefined);
    return this.started;
  }

  health(): McpServerHealth[] {
    return this.options.servers.map((server) => {
      const connection = this.connections.get(server.name);
      const error = this.failures.get(server.name) ?? null;
      return {
        name: server.name,
        ok: connection?.alive === true,
        error: error ?? (connection && !connection.alive ? "The server stopped." : null),
        tools: (connection?.tools ?? []).map((tool) => ({
          name: tool.name,
          registryName: mcpToolName(server.name, tool.name),
          description: tool.description,
        })),
      };
    });
  }

  /** Every MCP tool of the session's servers as a registry entry (tools turned off included). */
  async definitions(): Promise<ToolDefinition[]> {
    await this.start();
    return this.options.servers.flatMap((server) => {
      const connection = this.connections.get(server.name);
      if (!connection) return [];
      return connection.tools.flatMap((tool) => {
        const definition = this.definitionOf(server, connection, tool);
        return definition ? [definition] : [];
      });
    });
  }

  /** The registry entry of that name, or null: the dispatch's `extraTool`. */
  async toolNamed(name: string): Promise<ToolDefinition | null> {
    return (await this.definitions()).find((tool) => tool.name === name) ?? null;
  }

  /**
   * The tools a request offers the model, as the stage policy decides (`mcp-offer.ts`): the project's
   * stage choice, Safe tools only where the stage or the mode only looks, never a tool turned off.
   */
  async toolsOfStage(request: McpRequestFacts): Promise<ToolDefinition[]> {
    const choices = new Map(this.options.servers.map((server) => [server.name, server.stages]));
    return (await this.definitions()).filter((tool) => {
      const choice = tool.mcp ? choices.get(tool.mcp.server) : undefined;
      return (
        tool.mcp !== undefined &&
        choice !== undefined &&
        mcpToolOffered({ ...request, choice, setting: tool.mcp.setting })
      );
    });
  }

  /** The tools a request offers, as the model sees them: registry name, description, JSON Schema. */
  async manuals(
    request: McpRequestFacts,
  ): Promise<{ name: string; description: string; inputSchema: Record<string, unknown> }[]> {
    return (await this.toolsOfStage(request)).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.mcp?.inputSchema ?? { type: "object" },
    }));
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
    this.connections.clear();
  }

  private definitionOf(
    server: McpServerSettings,
    connection: McpConnection,
    listed: McpListedTool,
  ): ToolDefinition | null {
    const name = mcpToolName(server.name, listed.name);
    if (!name) return null;
    const setting = mcpToolRisk(server, listed.name);
    const timeoutMs = this.options.callTimeoutMs;
    return {
      name,
      wireName: name,
      risk: setting === "off" ? "dangerous" : setting,
      category: "mcp",
      stages: stagesOfChoice(server.stages) as readonly Stage[],
      readOnly: false,
      description: `(MCP server ${server.name}) ${listed.description}`.trim(),
      input: McpInput,
      data: undefined,
      paths: () => [],
      writes: false,
      mcp: { server: server.name, tool: listed.name, setting, inputSchema: listed.inputSchema },
      async execute(input, runtime) {
        const outcome = await connection.call(listed.name, input as Record<string, unknown>, {
          timeoutMs,
          ...(runtime.signal ? { signal: runtime.signal } : {}),
        });
        return outcome.isError
          ? { ok: false, code: "mcp_failed", message: outcome.text || "The MCP tool reported an error." }
          : { ok: true, output: outcome.text };
      },
    } as ToolDefinition;
  }
}
