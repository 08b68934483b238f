import { gitLogSpec } from "@/server/domain/tools/git-log";
import { gitStatusSpec } from "@/server/domain/tools/git-status";
import { resultText, type ToolResult } from "@/server/tools/dispatch";
import { toolData } from "@/server/tools/tool-data";

/**
 * Repo context for the act step (seed 004: "repo context each turn"): the branch, what is staged,
 * modified and untracked, and the last five commits, read fresh before every act turn through the
 * tool dispatch's read-only git tools. Capped, so a workspace with thousands of changed files cannot
 * crowd out the intention in the prompt.
 */

export const MAX_STATUS_CHARS = 2_000;
export const MAX_LOG_CHARS = 1_000;
export const RECENT_COMMITS = 5;

/** The part of the dispatch this needs (a ToolDispatch is one). */
export interface GitReader {
  run(call: { tool: string; input: unknown }, context: { activeIntent: null }): Promise<ToolResult>;
}

function capped(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const lines = cut.slice(0, cut.lastIndexOf("\n") + 1 || max);
  return `${lines}… (${text.length - lines.length} more characters not shown)`;
}

/** git.status's and git.log's typed data, as the prompt's "repository now" section. */
export function formatRepoContext(status: ToolResult, log: ToolResult): string {
  const statusData = toolData(status, gitStatusSpec);
  const logData = toolData(log, gitLogSpec);
  const section = (title: string, result: ToolResult, lines: string[] | null, max: number) =>
    lines !== null
      ? `${title}:\n${capped(lines.join("\n") || "(nothing)", max)}`
      : `${title}: unavailable (${capped(resultText(result) || "it returned no data", 300)})`;
  return [
    section(
      "Branch and changed files (git status; `??` untracked, left column staged)",
      status,
      statusData && [
        ...(statusData.branch === null ? [] : [`## ${statusData.branch}`]),
        ...statusData.changes,
      ],
      MAX_STATUS_CHARS,
    ),
    section(`Last ${RECENT_COMMITS} commits (git log)`, log, logData?.commits ?? null, MAX_LOG_CHARS),
  ].join("\n\n");
}

/** Reads the session's repository now; never throws (a failed read says so in the text). */
export async function readRepoContext(tools: GitReader): Promise<string> {
  const context = { activeIntent: null };
  const [status, log] = await Promise.all([
    tools.run({ tool: "git.status", input: {} }, context),
    tools.run({ tool: "git.log", input: { limit: RECENT_COMMITS } }, context),
  ]);
  return formatRepoContext(status, log);
}
