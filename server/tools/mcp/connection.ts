import "server-only";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { errorMessage } from "@/server/domain/errors";
import { type McpTransportConfig, urlOnAllowList } from "@/server/domain/tools/mcp";
import type { SandboxProcess } from "@/server/sandbox/types";
import { SandboxStdioTransport } from "./sandbox-transport";

/**
 * One connection to one MCP server, through the official SDK's `Client`: over the session's sandbox
 * (stdio: the program runs there, started by the sandbox provider) or over Streamable HTTP from the
 * server (only to a URL on the project's egress allow-list, and every request the transport makes —
 * redirects included — is checked again). Starting fails with a clear error; a server that goes away
 * later fails the calls in flight (the SDK rejects them when the transport closes) and later ones.
 */

/** A tool as the server lists it: its own name, description and JSON Schema input. */
export interface McpListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface McpCallOutcome {
  isError: boolean;
  text: string;
}

export interface McpConnectOptions {
  config: McpTransportConfig;
  /** Starts the stdio server's program in the session's sandbox. */
  startProcess(argv: readonly string[]): Promise<SandboxProcess>;
  /** The project's egress allow-list, which bounds the HTTP servers the server reaches. */
  allowList: readonly string[];
  /** How long the handshake and the tool listing may take. */
  startTimeoutMs?: number;
}

export class McpConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "McpConnectionError";
  }
}

const CLIENT_INFO = { name: "arbor", version: "1.0.0" };

export class McpConnection {
  private closed = false;
  private closeReason: string | null = null;

  private constructor(
    private readonly client: Client,
    private readonly stdio: SandboxStdioTransport | null,
    readonly tools: readonly McpListedTool[],
  ) {
    client.onclose = () => {
      this.closed = true;
      const stderr = this.stdio?.stderrTail;
      this.closeReason ??= `the MCP server stopped${stderr ? `: ${stderr.split("\n").slice(-3).join(" ")}` : ""}`;
    };
  }

  get alive(): boolean {
    return !this.closed;
  }

  static async open(options: McpConnectOptions): Promise<McpConnection> {
    const timeout = options.startTimeoutMs ?? 30_000;
    const { transport, stdio } = await transportOf(options);
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    try {
      await client.connect(transport, { timeout });
      const listed = await client.listTools(undefined, { timeout });
      const tools = listed.tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? "",
        inputSchema: tool.inputSchema as Record<string, unknown>,
      }));
      return new McpConnection(client, stdio, tools);
    } catch (error) {
      const stderr = stdio?.stderrTail;
      await client.close().catch(() => undefined);
      throw new McpConnectionError(
        `The MCP server did not start: ${errorMessage(error)}${stderr ? ` (it printed: ${stderr.slice(-500)})` : ""}`,
        { cause: error },
      );
    }
  }

  /** One tool call; a server that is gone or dies during the call is an error outcome, never a throw. */
  async call(
    tool: string,
    input: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<McpCallOutcome> {
    if (this.closed) return { isError: true, text: `The MCP server is not running: ${this.closeReason}.` };
    try {
      const result = await this.client.callTool({ name: tool, arguments: input }, undefined, {
        timeout: options.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { isError: result.isError === true, text: contentText(result.content) };
    } catch (error) {
      const reason = this.closed && this.closeReason ? this.closeReason : errorMessage(error);
      return { isError: true, text: `The MCP server failed during the call: ${reason}.` };
    }
  }

  async close(): Promise<void> {
    this.closeReason ??= "closed by Arbor";
    await this.client.close().catch(() => undefined);
  }
}

async function transportOf(
  options: McpConnectOptions,
): Promise<{ transport: Transport; stdio: SandboxStdioTransport | null }> {
  const { config } = options;
  if (config.transport === "stdio") {
    const process = await options.startProcess([config.command, ...config.args]).catch((error: unknown) => {
      throw new McpConnectionError(`The MCP server's program could not start: ${errorMessage(error)}`, {
        cause: error,
      });
    });
    const stdio = new SandboxStdioTransport(process);
    return { transport: stdio, stdio };
  }
  if (!urlOnAllowList(config.url, options.allowList))
    throw new McpConnectionError(notOnAllowList(config.url));
  const guarded: typeof fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!urlOnAllowList(url, options.allowList)) return Promise.reject(new Error(notOnAllowList(url)));
    return fetch(input, init);
  };
  return {
    transport: new StreamableHTTPClientTransport(new URL(config.url), { fetch: guarded }),
    stdio: null,
  };
}

export function notOnAllowList(url: string): string {
  return `${url} is not on the project's network allow-list: add its host (and port) under Network and setup → Custom allow-list.`;
}

/** The call's content as text for the model: text parts as they are, anything else named. */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: unknown; mimeType?: unknown; resource?: { uri?: unknown } }) => {
      if (part.type === "text" && typeof part.text === "string") return part.text;
      if (part.type === "resource") return `[resource ${String(part.resource?.uri ?? "")}]`;
      return `[${part.type ?? "content"}${typeof part.mimeType === "string" ? ` ${part.mimeType}` : ""}]`;
    })
    .join("\n");
}
