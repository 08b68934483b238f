import { z } from "zod";
import { entryAdmits } from "@/server/domain/vocabulary/egress";
import { RiskClass } from "./risk";
import { CHANGING_STAGES, LOOKING_STAGES } from "./spec";

/**
 * A project's MCP tool servers (Model Context Protocol), as the settings store and edit them, and the
 * names their tools take in Arbor's registry. The tools themselves are listed by each server at run
 * time, so they are not in the static catalogue: each becomes a registry entry named
 * `mcp__<server>__<tool>` (already a valid provider function name) with the risk the project set for
 * it (default `moderate`: a person approves every call), the category `mcp`, and the stages the
 * project offers the server's tools in.
 */

/** Lower case, digits and single dashes: never `__`, so a registry name splits back unambiguously. */
export const McpServerName = z
  .string()
  .trim()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "A server's name is lower-case letters, digits and dashes.")
  .max(24, "A server's name is at most 24 characters.");

/** The per-tool setting: a risk class, or `off` (never offered, and refused if called). */
export const McpToolRisk = z.union([RiskClass, z.literal("off")]);
export type McpToolRisk = z.infer<typeof McpToolRisk>;

/** What a person has not decided yet asks: `moderate` needs a person's approval for every call. */
export const DEFAULT_MCP_TOOL_RISK: McpToolRisk = "moderate";

/** Which stages offer the server's tools: `act` (the changing stages) or every stage that looks. */
export const MCP_STAGE_CHOICES = ["act", "looking"] as const;
export const McpStageChoice = z.enum(MCP_STAGE_CHOICES);
export type McpStageChoice = z.infer<typeof McpStageChoice>;

export function stagesOfChoice(choice: McpStageChoice): readonly string[] {
  return choice === "act" ? CHANGING_STAGES : LOOKING_STAGES;
}

const Argument = z
  .string()
  .max(1_000)
  .refine((text) => !/[\0\r\n]/.test(text), "no control characters");

/** How the server is reached: a program in the session's sandbox (stdio) or a URL (Streamable HTTP). */
export const McpTransportConfig = z.discriminatedUnion("transport", [
  z.strictObject({
    transport: z.literal("stdio"),
    command: Argument.pipe(z.string().min(1, "The command is required.")),
    args: z.array(Argument).max(50).default([]),
  }),
  z.strictObject({
    transport: z.literal("http"),
    url: z
      .string()
      .trim()
      .max(2_000)
      .url("The URL must be an http(s) URL.")
      .refine((url) => /^https?:\/\//i.test(url), "The URL must be an http(s) URL."),
  }),
]);
export type McpTransportConfig = z.infer<typeof McpTransportConfig>;

export const McpServerInput = z.object({
  name: McpServerName,
  config: McpTransportConfig,
  stages: McpStageChoice.default("act"),
});
export type McpServerInput = z.infer<typeof McpServerInput>;

/** A project's server as the registry reads it: its config and each tool's risk (absent: the default). */
export interface McpServerSettings {
  name: string;
  config: McpTransportConfig;
  stages: McpStageChoice;
  toolRisks: Readonly<Record<string, McpToolRisk>>;
}

const PREFIX = "mcp__";

/** Tool names that fit a provider's function name after the prefix (`^[a-zA-Z0-9_-]{1,64}$`). */
const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;

/** `mcp__<server>__<tool>`, or null when the tool's name cannot be a provider function name. */
export function mcpToolName(server: string, tool: string): string | null {
  const name = `${PREFIX}${server}__${tool}`;
  return TOOL_NAME.test(tool) && name.length <= 64 ? name : null;
}

/** The server and tool a registry name stands for, or null when it is not an MCP tool's name. */
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(PREFIX)) return null;
  const rest = name.slice(PREFIX.length);
  const split = rest.indexOf("__");
  if (split <= 0) return null;
  const server = rest.slice(0, split);
  const tool = rest.slice(split + 2);
  if (!McpServerName.safeParse(server).success || tool === "" || !TOOL_NAME.test(tool)) return null;
  return { server, tool };
}

export function mcpToolRisk(settings: Pick<McpServerSettings, "toolRisks">, tool: string): McpToolRisk {
  return settings.toolRisks[tool] ?? DEFAULT_MCP_TOOL_RISK;
}

/**
 * Is the URL's host and port on the project's egress allow-list? The server reaches an HTTP MCP
 * server itself, so the list that bounds the sandbox bounds it too. Raw addresses never pass (the
 * allow-list has no IP entries).
 */
export function urlOnAllowList(url: string, allowList: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  const port = parsed.port !== "" ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80;
  const host = parsed.hostname;
  if (host.startsWith("[") || /^[0-9.]+$/.test(host)) return false;
  return allowList.some((entry) => entryAdmits(entry, host, port));
}
