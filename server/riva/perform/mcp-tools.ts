import "server-only";
import type { EventInput } from "@/server/domain/events/schema";
import type { SessionView } from "@/server/domain/session/view";
import type { ReasoningSwitch, Stage, UserMode } from "@/server/domain/vocabulary/stages";
import type { ExtraToolManual } from "@/server/model/types";
import { mcpFailureNotices } from "../decide/mcp-notices";
import type { RivaDeps } from "../ports";

/**
 * The project's MCP tools one model request offers, as the stage policy allows them, and the run's
 * line for each server that could not start. A server that cannot be reached offers nothing and never
 * stops the run.
 */
export async function offeredMcpTools(
  deps: Pick<RivaDeps, "mcpToolsOf" | "logger">,
  at: { sessionId: string; runId: string; view: () => Pick<SessionView, "messages"> },
  request: { stage: Stage; mode: UserMode; reasoning: ReasoningSwitch },
  append: (bodies: EventInput[]) => Promise<void>,
): Promise<ExtraToolManual[]> {
  const tools = deps.mcpToolsOf?.(at.sessionId);
  if (!tools) return [];
  try {
    const manuals = await tools.manuals(request);
    const notices = mcpFailureNotices(at.view(), at.runId, await tools.startFailures());
    if (notices.length > 0) await append(notices);
    return manuals;
  } catch (error) {
    deps.logger.warn({ err: error, sessionId: at.sessionId }, "MCP tools could not be listed");
    return [];
  }
}
