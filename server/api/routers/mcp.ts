import "server-only";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createRouter, projectProcedure } from "@/server/api/trpc";
import {
  McpServerInput,
  McpServerName,
  type McpServerSettings,
  McpToolRisk,
} from "@/server/domain/tools/mcp";
import {
  addMcpServer,
  McpSettingsError,
  projectAllowList,
  projectMcpServers,
  removeMcpServer,
  setMcpToolRisk,
} from "@/server/settings/mcp-servers";
import { McpSessionTools } from "@/server/tools/mcp/session-tools";
import type { McpSessions } from "@/server/tools/mcp/sessions";

/**
 * A project's MCP tool servers (issue #21.2). Anyone in the team reads them and their health;
 * adding, removing and setting a tool's risk are project settings (admins and owners). An HTTP
 * server's URL must be on the project's egress allow-list. Changes apply to sessions created afterwards.
 */
export const mcpRouter = createRouter({
  list: projectProcedure.query(async ({ ctx }) => {
    const servers = await projectMcpServers(ctx.db, ctx.project.id);
    const health = new Map(ctx.app.mcp.healthOf(ctx.project.id).map((report) => [report.name, report]));
    return {
      allowList: await projectAllowList(ctx.db, ctx.project.id),
      servers: servers.map((server) => ({ ...server, health: health.get(server.name) ?? null })),
    };
  }),

  add: projectProcedure
    .requires("settings")
    .input(McpServerInput)
    .mutation(async ({ ctx, input }) => {
      await settingsCall(() => addMcpServer(ctx.db, ctx.project.id, ctx.user.id, input));
      if (input.config.transport === "http")
        await checkHttp(ctx, { ...input, toolRisks: {} }, await projectAllowList(ctx.db, ctx.project.id));
      return { note: "Saved. New sessions connect to it; sessions already running keep their tools." };
    }),

  remove: projectProcedure
    .requires("settings")
    .input(z.object({ name: McpServerName }))
    .mutation(async ({ ctx, input }) => {
      await removeMcpServer(ctx.db, ctx.project.id, input.name);
      return { note: "Removed. New sessions no longer connect to it." };
    }),

  setToolRisk: projectProcedure
    .requires("settings")
    .input(z.object({ server: McpServerName, tool: z.string().min(1).max(64), risk: McpToolRisk }))
    .mutation(async ({ ctx, input }) => {
      await settingsCall(() => setMcpToolRisk(ctx.db, ctx.project.id, input.server, input.tool, input.risk));
      return { note: "Saved. New sessions use it." };
    }),

  /** Connects to an HTTP server now; a stdio server runs only in a session's sandbox, so it is seen there. */
  check: projectProcedure
    .requires("settings")
    .input(z.object({ name: McpServerName }))
    .mutation(async ({ ctx, input }) => {
      const server = (await projectMcpServers(ctx.db, ctx.project.id)).find(
        (entry) => entry.name === input.name,
      );
      if (!server) throw new TRPCError({ code: "NOT_FOUND", message: `No MCP server named ${input.name}.` });
      if (server.config.transport === "stdio")
        return {
          note: "A stdio server runs inside a session's sandbox: its health shows once a session starts it.",
        };
      await checkHttp(ctx, server, await projectAllowList(ctx.db, ctx.project.id));
      return { note: "Checked." };
    }),
});

async function checkHttp(
  ctx: { project: { id: string }; app: { mcp: Pick<McpSessions, "remember"> } },
  server: McpServerSettings,
  allowList: string[],
): Promise<void> {
  const tools = new McpSessionTools({
    servers: [server],
    startProcess: () => Promise.reject(new Error("not a stdio server")),
    allowList,
    callTimeoutMs: 10_000,
    startTimeoutMs: 10_000,
  });
  await tools.start();
  ctx.app.mcp.remember(ctx.project.id, tools.health(), null);
  await tools.close();
}

async function settingsCall(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof McpSettingsError) throw new TRPCError({ code: error.code, message: error.message });
    throw error;
  }
}
