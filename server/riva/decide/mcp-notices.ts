import { randomUUID } from "node:crypto";
import type { EventInput } from "@/server/domain/events/schema";
import type { SessionView } from "@/server/domain/session/view";

/**
 * The line a run shows when one of the project's MCP servers could not start (issue #21.2): a system
 * message in the run, once per server and run, so the person sees why its tools are missing while
 * the run goes on without them. Pure: the view says whether this run already said it.
 */

export interface McpStartFailure {
  server: string;
  error: string;
}

/** What a server printed can be long; the card in the settings keeps the rest. */
const MAX_ERROR_CHARS = 500;

export function mcpFailureLead(server: string): string {
  return `The MCP server ${server} could not start`;
}

export function mcpFailureNotices(
  view: Pick<SessionView, "messages">,
  runId: string,
  failures: readonly McpStartFailure[],
): EventInput[] {
  return failures.flatMap((failure) => {
    const lead = mcpFailureLead(failure.server);
    const said = view.messages.some(
      (message) => message.runId === runId && message.role === "system" && message.text.startsWith(lead),
    );
    if (said) return [];
    const error =
      failure.error.length > MAX_ERROR_CHARS
        ? `${failure.error.slice(0, MAX_ERROR_CHARS - 1)}…`
        : failure.error;
    return [
      {
        type: "message-posted",
        messageId: randomUUID(),
        runId,
        role: "system",
        text: `${lead}: ${error} This run goes on without its tools.`,
      },
    ];
  });
}
