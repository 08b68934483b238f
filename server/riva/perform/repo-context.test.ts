import { describe, expect, it } from "vitest";
import type { ToolResult } from "@/server/tools/dispatch";
import { formatRepoContext, MAX_STATUS_CHARS, readRepoContext } from "./repo-context";

function result(fields: Partial<ToolResult>): ToolResult {
  return {
    tool: "git.status",
    status: "ok",
    output: "",
    error: null,
    exitCode: 0,
    timedOut: false,
    aborted: false,
    durationMs: 1,
    gate: null,
    binding: null,
    input: {},
    trace: [],
    ...fields,
  };
}

describe("repo context for the act step", () => {
  it("shows the branch, changed files and last commits", () => {
    const text = formatRepoContext(
      result({
        output: "## arbor/session-1\n M src/a.ts\n?? notes.txt\n",
        data: { branch: "arbor/session-1", changes: [" M src/a.ts", "?? notes.txt"] },
      }),
      result({
        tool: "git.log",
        output: "abc123 2026-11-23 Ada: first\n",
        data: { commits: ["abc123 2026-11-23 Ada: first"] },
      }),
    );
    expect(text).toContain("## arbor/session-1\n M src/a.ts\n?? notes.txt");
    expect(text).toContain("Last 5 commits (git log):\nabc123 2026-11-23 Ada: first");
  });

  it("caps a huge status at whole lines and says how much was left out", () => {
    const changes = Array.from({ length: 2_000 }, (_, i) => `?? file-${i}.txt`);
    const text = formatRepoContext(
      result({ output: changes.join("\n"), data: { branch: null, changes } }),
      result({ tool: "git.log", output: "(no commits yet)", data: { commits: [] } }),
    );
    const status = text.split("\n\nLast")[0] ?? "";
    expect(status.length).toBeLessThan(MAX_STATUS_CHARS + 200);
    expect(status).toMatch(/\?\? file-\d+\.txt\n… \(\d+ more characters not shown\)$/);
  });

  it("says a read failed instead of failing the turn", () => {
    const text = formatRepoContext(
      result({ status: "failed", error: { code: "git_failed", message: "not a git repository" } }),
      result({ tool: "git.log", output: "", data: { commits: [] } }),
    );
    expect(text).toContain("unavailable (git.status failed: not a git repository)");
    expect(text).toContain("(nothing)");
  });

  it("reads through the dispatch's read-only git tools, with no intent", async () => {
    const calls: { tool: string; input: unknown; intent: unknown }[] = [];
    const text = await readRepoContext({
      run: async (call, context) => {
        calls.push({ ...call, intent: context.activeIntent });
        return call.tool === "git.status"
          ? result({ tool: call.tool, output: "## main", data: { branch: "main", changes: [] } })
          : result({ tool: call.tool, output: "a1 x: y", data: { commits: ["a1 x: y"] } });
      },
    });
    expect(calls).toEqual([
      { tool: "git.status", input: {}, intent: null },
      { tool: "git.log", input: { limit: 5 }, intent: null },
    ]);
    expect(text).toContain("## main");
  });
});
