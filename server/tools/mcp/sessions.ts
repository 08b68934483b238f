import "server-only";
import type { McpServerSettings } from "@/server/domain/tools/mcp";
import type { SandboxProvider } from "@/server/sandbox/types";
import type { ToolDefinition } from "../types";
import { type McpRequestFacts, type McpServerHealth, McpSessionTools } from "./session-tools";

/**
 * Every session's MCP servers in this server process: connected on a session's first need (the act
 * stage's tool list, or a call), kept while the process runs, and the latest health per project for
 * the settings page. A session whose project has no servers costs one settings read.
 */

export interface McpSessionSettings {
  projectId: string;
  servers: McpServerSettings[];
  allowList: string[];
}

export interface McpHealthReport extends McpServerHealth {
  /** When and in which session it was seen (stdio servers run only inside a session's sandbox). */
  checkedAt: Date;
  sessionId: string | null;
}

export class McpSessions {
  private readonly sessions = new Map<string, Promise<McpSessionTools | null>>();
  private readonly health = new Map<string, Map<string, McpHealthReport>>();

  constructor(
    private readonly deps: {
      settingsOf(sessionId: string): Promise<McpSessionSettings>;
      sandboxes: SandboxProvider;
      callTimeoutMs: number;
    },
  ) {}

  /** The session's MCP tools as the engine, the answer path and the dispatch read them. */
  forSession(sessionId: string) {
    return {
      toolNamed: async (name: string): Promise<ToolDefinition | null> =>
        (await this.tools(sessionId))?.toolNamed(name) ?? null,
      manuals: async (request: McpRequestFacts) => (await this.tools(sessionId))?.manuals(request) ?? [],
      startFailures: async () =>
        ((await this.tools(sessionId))?.health() ?? []).flatMap((health) =>
          health.ok ? [] : [{ server: health.name, error: health.error ?? "The server stopped." }],
        ),
      lookingNeedsSandbox: async () =>
        (await this.deps.settingsOf(sessionId)).servers.some(
          (server) => server.config.transport === "stdio" && server.stages !== "act",
        ),
    };
  }

  /** What the project's servers looked like last, by server name (empty until a session or a check ran). */
  healthOf(projectId: string): McpHealthReport[] {
    return [...(this.health.get(projectId)?.values() ?? [])];
  }

  /** Records a check's result (the settings page's, for an HTTP server). */
  remember(projectId: string, reports: readonly McpServerHealth[], sessionId: string | null): void {
    const byName = this.health.get(projectId) ?? new Map<string, McpHealthReport>();
    for (const report of reports) byName.set(report.name, { ...report, checkedAt: new Date(), sessionId });
    this.health.set(projectId, byName);
  }

  async close(sessionId: string): Promise<void> {
    const tools = await this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    await tools?.close();
  }

  private tools(sessionId: string): Promise<McpSessionTools | null> {
    let entry = this.sessions.get(sessionId);
    if (!entry) {
      entry = this.open(sessionId);
      this.sessions.set(sessionId, entry);
      // A settings read that failed is tried again on the next need, not remembered.
      entry.catch(() => this.sessions.delete(sessionId));
    }
    return entry;
  }

  private async open(sessionId: string): Promise<McpSessionTools | null> {
    const settings = await this.deps.settingsOf(sessionId);
    if (settings.servers.length === 0) return null;
    const { sandboxes } = this.deps;
    const tools = new McpSessionTools({
      servers: settings.servers,
      startProcess: (argv) => {
        if (!sandboxes.openProcess)
          throw new Error("This sandbox provider cannot run an MCP server over stdio.");
        return sandboxes.openProcess(sessionId, argv);
      },
      allowList: settings.allowList,
      callTimeoutMs: this.deps.callTimeoutMs,
    });
    await tools.start();
    this.remember(settings.projectId, tools.health(), sessionId);
    return tools;
  }
}
