import { type ChatRequest, type FakeReply, intentionText, textOf } from "./request";

/**
 * A project's MCP tool in a whole run (issue #21.2): an act step whose intention is marked `(mcp-sum)`
 * calls the offered `mcp__<server>__get-sum` of `@modelcontextprotocol/server-everything` with 2 and
 * 3, until the request shows its result ("The sum of 2 and 3 is 5"); then the step acts as by default.
 */
export const MCP_SUM_MARK = "(mcp-sum)";
const SUM_RESULT = "The sum of 2 and 3 is 5";

const sumTool = (request: ChatRequest) =>
  request.toolNames.find((name) => /^mcp__[a-z0-9-]+__get-sum$/.test(name));

export function mcpSumDue(request: ChatRequest): boolean {
  if (!intentionText(request).includes(MCP_SUM_MARK) || !sumTool(request)) return false;
  return !request.messages.some((message) => textOf(message).includes(SUM_RESULT));
}

export function mcpSumReply(request: ChatRequest): FakeReply {
  const name = sumTool(request) ?? "";
  return {
    type: "tool-calls",
    calls: [{ name, arguments: { thought: "Add 2 and 3 with the project's MCP tool.", a: 2, b: 3 } }],
  };
}
