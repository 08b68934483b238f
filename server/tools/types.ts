import type { z } from "zod";
import type { RiskClass } from "@/server/domain/tools/risk";
import type { ToolName } from "@/server/domain/vocabulary/stages";
import type { SecretFinding } from "@/server/governance/secrets";
import type { Sandbox } from "@/server/sandbox/types";

/**
 * What every tool is: a name, an operating manual for the model, a zod schema its input must pass
 * (model output is parsed, never cast), a risk class (seed 004) and the code that runs it in the
 * session's sandbox. Tools never decide whether they may run: the dispatch (`dispatch.ts`) does, and
 * calls `execute` only after every gate said yes.
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
  | "sandbox_error";

/** What `execute` hands back; the dispatch wraps it into a ToolResult. */
export type ToolOutput =
  | {
      ok: true;
      /** What the model reads. */
      output: string;
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

export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  name: ToolName;
  risk: RiskClass;
  /** An operating manual, written for the model: what it does, when to use it, what it returns. */
  description: string;
  input: Schema;
  /**
   * The workspace paths the call touches. The scope guard resolves each one inside the sandbox
   * (`..`, symlinks) before any gate; `writes` decides whether the owned scope applies.
   */
  paths(input: z.output<Schema>): string[];
  /** True when the paths are written (checked against the intent's owned scope), false for reads. */
  writes: boolean;
  /**
   * True when the call acts on the directory entry itself, never on what a symbolic link points to
   * (fs.delete removes the link). The scope guard then resolves the parent directory and keeps the
   * last component as written: a link to outside /workspace can be deleted, its target is never
   * touched or judged.
   */
  actsOnEntry?: boolean;
  /**
   * What the approval gate and the person asked should see before it runs: the content's secrets (a
   * write, the staged diff of a commit) and a preview. Runs after the scope guard, before the gate.
   */
  inspect?(input: z.output<Schema>, runtime: ToolRuntime): Promise<ToolInspection>;
  execute(input: z.output<Schema>, runtime: ToolRuntime): Promise<ToolOutput>;
}

export interface ToolInspection {
  secretFindings: SecretFinding[];
  /** E.g. the staged diff a commit would record; shown with the approval request. */
  preview?: string;
}

/** Keeps each tool file's types exact while the registry holds them side by side. */
export function defineTool<Schema extends z.ZodType>(tool: ToolDefinition<Schema>): ToolDefinition<Schema> {
  return tool;
}
