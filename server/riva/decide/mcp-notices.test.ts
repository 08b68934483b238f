import { describe, expect, it } from "vitest";
import type { MessageView } from "@/server/domain/session/view";
import { mcpFailureNotices } from "./mcp-notices";

const failure = { server: "broken", error: "MCP error -32000: Connection closed" };

describe("the run's line for an MCP server that could not start", () => {
  it("says which server, why, and that the run goes on without it", () => {
    const [notice] = mcpFailureNotices({ messages: [] }, "run-1", [failure]);
    expect(notice).toMatchObject({ type: "message-posted", runId: "run-1", role: "system" });
    expect(notice?.type === "message-posted" && notice.text).toBe(
      "The MCP server broken could not start: MCP error -32000: Connection closed This run goes on without its tools.",
    );
  });

  it("says it once per run, and again in the next run", () => {
    const [notice] = mcpFailureNotices({ messages: [] }, "run-1", [failure]);
    const said: MessageView = {
      id: "m1",
      runId: "run-1",
      role: "system",
      text: notice?.type === "message-posted" ? notice.text : "",
      at: "",
    };
    expect(mcpFailureNotices({ messages: [said] }, "run-1", [failure])).toEqual([]);
    expect(mcpFailureNotices({ messages: [said] }, "run-2", [failure])).toHaveLength(1);
  });

  it("keeps a long error to 500 characters", () => {
    const long = { server: "broken", error: "x".repeat(501) };
    const [notice] = mcpFailureNotices({ messages: [] }, "run-1", [long]);
    const text = notice?.type === "message-posted" ? notice.text : "";
    expect(text).toContain(`${"x".repeat(499)}…`);
    expect(text).not.toContain("x".repeat(500));
  });
});
