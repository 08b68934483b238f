import type { z } from "zod";
import type { ToolSpec } from "@/server/domain/tools/spec";
import type { SecretFinding } from "@/server/governance/secrets";
import type { Sandbox } from "@/server/sandbox/types";

/**
 * What every tool is: its spec from the catalogue (`server/domain/tools/`: name, risk, stages, the
 * operating manual, the zod schema its input must pass — model output is parsed, never cast) and the
 * code that runs it in the session's sandbox. Tools never decide whether they may run: the dispatch
 * (`dispatch.ts`) does, and calls `execute` only after every gate said yes.
 */

/** How a tool failed, in words the model can act on; none of these ends a run. */
export type ToolErrorCode =
  | "invalid_input"
  | "unknown_tool"
  | "denied"
  | "needs_approval"
  | "not_found"
  | "not_a_file"
  | "search_not_found"
  | "search_ambiguous"
  | "command_failed"
  | "timeout"
  | "stopped"
  | "too_large"
  | "workspace_full"
  | "git_failed"
  | "sandbox_error"
  /** An MCP server answered the call with an error, or could not answer it (gone, crashed). */
  | "mcp_failed";

/** What `execute` hands back; the dispatch wraps it into a ToolResult. */
export type ToolOutput<Data = never> =
  | {
      ok: true;
      /** What the model reads. */
      output: string;
      /** The same facts typed (the spec's `data` schema), for code: never parsed back from `output`. */
      data?: Data;
      exitCode?: number;
      /** select_active_intent only: the intent the run now works under. */
      selectedIntent?: { id: string; ownedScope: string[] };
    }
  | {
      ok: false;
      code: ToolErrorCode;
      message: string;
      /** Whatever the failing command printed, for the model to read. */
      output?: string;
      exitCode?: number | null;
      timedOut?: boolean;
      /** The caller's signal (a person's Stop) killed it. */
      aborted?: boolean;
    };

/** The sandbox and limits a tool runs with; built by the dispatch, never by a caller. */
export interface ToolRuntime {
  sandbox: Sandbox;
  /** Per-command time limit. */
  timeoutMs: number;
  /** Cap on each captured output stream. */
  maxOutputBytes: number;
  /** Refuse writes that would grow /workspace beyond this many bytes; null means no cap. */
  workspaceMaxBytes: number | null;
  /** A person's Stop: aborting it kills the running command's whole process tree. */
  signal?: AbortSignal;
  /** A command's output as it arrives (shell.exec only), for the page's live view; never a record. */
  onOutput?: (chunk: string) => void;
  /**
   * Extra environment for the call's command (the setup secrets, for setup.run only). Never part of
   * the input, so never in the binding, the events or the model's view.
   */
  env?: Record<string, string>;
}

/** How a tool runs: the part of a tool that is not in its spec. */
export interface ToolExecution<Input, Data> {
  /**
   * What the approval gate and the person asked should see before it runs: the content's secrets (a
   * write, the staged diff of a commit) and a preview. Runs after the scope guard, before the gate.
   */
  inspect?(input: Input, runtime: ToolRuntime): Promise<ToolInspection>;
  execute(input: Input, runtime: ToolRuntime): Promise<ToolOutput<Data>>;
}

type DataOf<Schema> = Schema extends z.ZodType ? z.output<Schema> : never;

export type ToolDefinition<Spec extends ToolSpec = ToolSpec> = Spec &
  ToolExecution<z.output<Spec["input"]>, DataOf<Spec["data"]>>;

export interface ToolInspection {
  secretFindings: SecretFinding[];
  /** E.g. the staged diff a commit would record; shown with the approval request. */
  preview?: string;
}

/** A tool: its catalogue spec and the code that runs it, with the spec's input and data types. */
export function implementTool<Spec extends ToolSpec>(
  spec: Spec,
  execution: ToolExecution<z.output<Spec["input"]>, DataOf<Spec["data"]>>,
): ToolDefinition<Spec> {
  return { ...spec, ...execution };
}
