import type { Action, ToolCallBody } from "@/server/domain/events/schema";
import { capEndCounted } from "@/server/domain/text/cap";
import { isReadOnlyTool } from "@/server/domain/tools/catalogue";
import type { ActionType, Judgment } from "@/server/domain/vocabulary/session";
import type { ToolResult } from "@/server/tools/dispatch";
import { judgeCommand } from "./judge";

/**
 * How a tool call becomes a cycle's action (seed 000's Action types) and how its result is judged.
 * Pure: the engine and the cycle runner call these, tests drive them without a sandbox.
 *
 * A cycle whose action is a read (QUERY: the model asked to read instead of acting, or used up its
 * reads) changes nothing, so it never verifies an intention by itself: it is UNCLEAR unless the
 * intention's contract, checked afterwards, holds — then the contract verified it, not the read.
 */

/** Long strings in a recorded input are cut here (the call that runs is never the recorded copy). */
export const MAX_RECORDED_STRING = 20_000;

export function isReadCall(tool: string): boolean {
  return isReadOnlyTool(tool);
}

/** fs.write of a file that did not exist creates it; everything that changes a file in place edits it. */
export function actionTypeOf(tool: string, fileExisted: boolean | null): ActionType {
  if (tool === "fs.write") return fileExisted === true ? "EDIT" : "CREATE";
  if (tool === "fs.edit") return "EDIT";
  if (tool === "fs.delete") return "DELETE";
  if (isReadCall(tool)) return "QUERY";
  return "COMMAND";
}

/** The input with every long string capped, for the log; non-string values are kept as they are. */
export function recordedInput(
  input: Record<string, unknown>,
  max = MAX_RECORDED_STRING,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [
      key,
      typeof value === "string" ? capEndCounted(value, max) : value,
    ]),
  );
}

const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** What a reader of the log sees as the action: the command, the new content, the edit. */
function contentOf(call: ToolCallBody): string {
  const input = call.input;
  switch (call.tool) {
    case "shell.exec":
      return str(input.command) ?? "";
    case "fs.write":
      return str(input.content) ?? "";
    case "fs.edit":
      return `replace:\n${str(input.search) ?? ""}\nwith:\n${str(input.replace) ?? ""}`;
    case "fs.delete":
      return `delete ${str(input.path) ?? ""}`;
    case "git.commit":
      return `git commit: ${str(input.message) ?? ""}`;
    default:
      return `${call.tool} ${JSON.stringify(input)}`;
  }
}

export function actionOf(call: ToolCallBody, fileExisted: boolean | null = null): Action {
  return {
    type: actionTypeOf(call.tool, fileExisted),
    content: capEndCounted(contentOf(call), MAX_RECORDED_STRING),
    target: str(call.input.path),
    tool: call.tool,
    input: recordedInput(call.input),
  };
}

/** One line for the log and the model's "earlier attempts": `fs.edit src/a.js` or the command itself. */
export function describeCall(call: { tool: string; input: unknown }, max = 2_000): string {
  const input = (typeof call.input === "object" && call.input !== null ? call.input : {}) as Record<
    string,
    unknown
  >;
  if (call.tool === "shell.exec") return capEndCounted(str(input.command) ?? "", max);
  const path = str(input.path);
  const rest = Object.entries(input)
    .filter(([key]) => key !== "path" && key !== "content" && key !== "search" && key !== "replace")
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  const words = [call.tool, path ?? "", ...rest].filter((word) => word !== "").join(" ");
  return capEndCounted(words, max);
}

/**
 * The auto judgment of a tool call's result before the contract: a command by its exit code; any
 * other tool that ran is SUCCESS (a write that landed), a read UNCLEAR (it proves nothing), and one
 * that failed or was refused FAILURE with the tool's own reason for the next attempt to read.
 */
export function judgeToolResult(
  call: { tool: string },
  result: Pick<ToolResult, "status" | "error" | "exitCode" | "timedOut" | "output">,
): { judgment: Judgment; reason: string } {
  if (call.tool === "shell.exec") {
    const error = result.exitCode !== null || result.timedOut ? null : (result.error?.message ?? null);
    return judgeCommand({ ...result, error: result.status === "ok" ? null : error });
  }
  if (result.status !== "ok")
    return {
      judgment: "FAILURE",
      reason: `${call.tool} ${result.status}: ${result.error?.message ?? "no reason given"}`,
    };
  if (isReadCall(call.tool))
    return { judgment: "UNCLEAR", reason: `${call.tool} only read; a read does not verify the intention` };
  return { judgment: "SUCCESS", reason: `${call.tool} succeeded` };
}

/** An earlier attempt in one line: the command, or the tool and its file (a file's content is not repeated). */
export function attemptedAction(action: Pick<Action, "content" | "tool" | "input">): string {
  if (action.tool === null || action.tool === "shell.exec" || action.input === null) return action.content;
  return describeCall({ tool: action.tool, input: action.input });
}
