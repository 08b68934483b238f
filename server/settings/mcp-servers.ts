import "server-only";
import {
  type McpServerInput,
  type McpServerSettings,
  McpStageChoice,
  McpToolRisk,
  McpTransportConfig,
  urlOnAllowList,
} from "@/server/domain/tools/mcp";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { parseEgress } from "@/server/setup/environment";
import { notOnAllowList } from "@/server/tools/mcp/connection";

type Db = Pick<PrismaClient, "mcpServer" | "projectEnvironment">;

/** A change that cannot be saved, in words for the settings page. */
export class McpSettingsError extends Error {
  constructor(
    readonly code: "BAD_REQUEST" | "CONFLICT" | "NOT_FOUND",
    message: string,
  ) {
    super(message);
    this.name = "McpSettingsError";
  }
}

/** A project's MCP servers as sessions use them; a row that no longer parses is left out. */
export async function projectMcpServers(db: Db, projectId: string): Promise<McpServerSettings[]> {
  const rows = await db.mcpServer.findMany({ where: { projectId }, orderBy: { name: "asc" } });
  return rows.flatMap((row) => {
    const config = McpTransportConfig.safeParse(safeJson(row.config));
    if (!config.success) return [];
    const stages = McpStageChoice.safeParse(row.stages);
    const risks = safeJson(row.toolRisks);
    const toolRisks: Record<string, McpToolRisk> = {};
    if (risks && typeof risks === "object")
      for (const [tool, risk] of Object.entries(risks)) {
        const parsed = McpToolRisk.safeParse(risk);
        if (parsed.success) toolRisks[tool] = parsed.data;
      }
    return [{ name: row.name, config: config.data, stages: stages.success ? stages.data : "act", toolRisks }];
  });
}

/** The project's egress allow-list, which bounds the HTTP MCP servers the server reaches. */
export async function projectAllowList(db: Db, projectId: string): Promise<string[]> {
  const row = await db.projectEnvironment.findUnique({ where: { projectId } });
  return parseEgress(row?.egress).allowList;
}

/** Adds a server; an HTTP URL must be on the project's allow-list, a name must be new. */
export async function addMcpServer(
  db: Db,
  projectId: string,
  userId: string,
  input: McpServerInput,
): Promise<void> {
  if (input.config.transport === "http") {
    const allowList = await projectAllowList(db, projectId);
    if (!urlOnAllowList(input.config.url, allowList))
      throw new McpSettingsError("BAD_REQUEST", notOnAllowList(input.config.url));
  }
  const existing = await db.mcpServer.findUnique({
    where: { projectId_name: { projectId, name: input.name } },
  });
  if (existing)
    throw new McpSettingsError("CONFLICT", `This project already has an MCP server named ${input.name}.`);
  await db.mcpServer.create({
    data: {
      projectId,
      name: input.name,
      config: JSON.stringify(input.config),
      stages: input.stages,
      createdById: userId,
    },
  });
}

export async function removeMcpServer(db: Db, projectId: string, name: string): Promise<void> {
  await db.mcpServer.deleteMany({ where: { projectId, name } });
}

/** The project's risk for one tool of a server (`off`: refused); the default asks a person. */
export async function setMcpToolRisk(
  db: Db,
  projectId: string,
  server: string,
  tool: string,
  risk: McpToolRisk,
): Promise<void> {
  const row = await db.mcpServer.findUnique({ where: { projectId_name: { projectId, name: server } } });
  if (!row) throw new McpSettingsError("NOT_FOUND", `This project has no MCP server named ${server}.`);
  const risks = safeJson(row.toolRisks);
  const next = { ...(risks && typeof risks === "object" ? risks : {}), [tool]: risk };
  await db.mcpServer.update({ where: { id: row.id }, data: { toolRisks: JSON.stringify(next) } });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
