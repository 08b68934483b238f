import { z } from "zod";
import { errorMessage } from "@/server/domain/errors";
import { type ActiveIntent, INTENT_REQUIRED_ERROR } from "@/server/governance/intent-gate";
import type { CycleIds, LedgerMark } from "@/server/governance/ledger/cycle-ledger";
import type { AgentTraceRecord } from "@/server/governance/ledger/record";
import { entryRealpath, sandboxRealpath } from "@/server/governance/sandbox-realpath";
import { approvalBinding, verifyBinding } from "@/server/policy/approval/binding";
import type { ApprovalDecision } from "@/server/policy/approval/decision";
import type { Sandbox } from "@/server/sandbox/types";
import { toolNamed } from "./registry";
import { guardPaths } from "./scope-stage";
import { type GatePolicy, gateToolCall } from "./tool-gate";
import type { ToolDefinition, ToolErrorCode, ToolOutput, ToolRuntime } from "./types";

/**
 * The one door every tool call goes through, in this order:
 *
 *   parse the input with the tool's zod schema (model output is never cast)
 *   → intent gate (a mutating tool needs a selected intent, seed 003)
 *   → scope guard (each path resolved inside the sandbox — `..`, symlinks — then the owned scope)
 *   → approval gate (risk class, policy, pre-approvals, secrets, protected paths; a person's approval
 *     counts only when it is bound to exactly this call)
 *   → execute in the sandbox → trace ledger (what a mutating call changed) → the result.
 *
 * The caller appends the result as events (the cycle runner writes cycle-* and trace-recorded
 * events). Nothing here throws for a tool's failure: a missing file, a failed command, a timeout,
 * a schema violation or a sandbox that is gone come back as a ToolResult the model can read.
 */

export interface ToolCall {
  tool: string;
  input: unknown;
}

export interface DispatchContext {
  /** The intent the run works under (select_active_intent, or the intention being worked). */
  activeIntent: ActiveIntent | null;
  /** The intention being worked, whose approved scope (approved-scopes.ts) the policy may grant. */
  intentionId?: string;
  /** A person's approval: the binding of the exact call they saw, and who they are. */
  approval?: { binding: string; approver: string | null } | null;
  /** Where the trace ledger files this call's changes; without it nothing is recorded. */
  traceIds?: CycleIds;
  /** A person's Stop: aborting it kills the call's running command (its whole process tree). */
  signal?: AbortSignal | undefined;
  /** A command's output as it arrives, for the live view (see server/events/command-output.ts). */
  onOutput?: (chunk: string) => void;
  /** Environment for the call's command only (setup secrets); see ToolRuntime.env. */
  env?: Record<string, string>;
}

/** The trace ledger as the dispatch uses it (CycleLedger is one). */
export interface TraceLedgerPort {
  begin(): Promise<LedgerMark>;
  afterAction(mark: LedgerMark, ids: CycleIds): Promise<AgentTraceRecord[]>;
}

/**
 * The scope a call's writes must stay in, and what happens to a write outside it: refused with the
 * reason, or asked of a person (never approved by a pre-approval or a setting: the person sees why).
 */
export interface EnforcedIntent {
  activeIntent: ActiveIntent | null;
  outside: "refuse" | "ask";
}

export interface DispatchDeps {
  /** The session's sandbox, acquired only when a stage needs it. */
  sandbox(): Promise<Sandbox>;
  /** What has been decided in advance for this call (the project's policy, the intention's approved scope). */
  policy(context: DispatchContext): Promise<GatePolicy>;
  /**
   * The intent whose owned_scope this call's writes must stay in, when the caller narrows the one it
   * passed (the engine: a child's approved scope, the project intent the model selected); absent: as passed.
   */
  enforcedIntent?(context: DispatchContext): Promise<EnforcedIntent>;
  timeoutMs: number;
  maxOutputBytes?: number;
  workspaceMaxBytes?: number | null;
  /** The cap as known when a tool runs (a project's own); overrides `workspaceMaxBytes` when given. */
  workspaceCap?: () => number | null;
  ledger?: TraceLedgerPort;
  /**
   * Tools that are not in the static catalogue, by registry name: the project's MCP tools
   * (`server/tools/mcp/`). They pass every gate below like the catalogue's.
   */
  extraTool?(name: string): Promise<ToolDefinition | null>;
  logger?: { warn(object: object, message: string): void };
}

export type ToolResultStatus = "ok" | "failed" | "denied" | "ask" | "invalid";

export interface ToolResult {
  tool: string;
  status: ToolResultStatus;
  /** What the command or tool printed (raw); see `resultText` for the model's whole view. */
  output: string;
  /**
   * The same facts typed, when the call succeeded and its spec declares `data`: read it with
   * `toolData` (`tool-data.ts`), never by parsing `output` (which is written for the model).
   */
  data?: unknown;
  error: { code: ToolErrorCode; message: string } | null;
  exitCode: number | null;
  timedOut: boolean;
  /** The context's signal was aborted while the call ran, and that killed it. */
  aborted: boolean;
  durationMs: number;
  /** The approval gate's decision, when the call got that far. */
  gate: ApprovalDecision | null;
  /** `sha256:` binding of the parsed call; an approval must carry exactly this to let it run. */
  binding: string | null;
  /** The input after its schema (defaults filled in), when it parsed. */
  input: unknown;
  /** What the person asked should see besides the call itself (e.g. a commit's staged diff). */
  preview?: string;
  /** Agent Trace records of what the call changed (mutating tools with a ledger and trace ids). */
  trace: AgentTraceRecord[];
  /** select_active_intent: the intent selected. */
  selectedIntent?: ActiveIntent;
}

const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;

type Gated =
  | { done: ToolResult }
  | { tool: ToolDefinition; input: unknown; binding: string; gate: ApprovalDecision; preview?: string };

export class ToolDispatch {
  private sandboxPromise: Promise<Sandbox> | null = null;

  constructor(private readonly deps: DispatchDeps) {}

  /** Every gate, nothing executed: what would happen to this call, and its binding. Never throws. */
  async check(call: ToolCall, context: DispatchContext): Promise<ToolResult> {
    const started = Date.now();
    try {
      const gated = await this.gates(call, context, started);
      if ("done" in gated) return gated.done;
      const status =
        gated.gate.decision === "approve" ? "ok" : gated.gate.decision === "ask" ? "ask" : "denied";
      return base(call.tool, started, {
        status,
        gate: gated.gate,
        binding: gated.binding,
        input: gated.input,
        ...(gated.preview !== undefined ? { preview: gated.preview } : {}),
        ...(status === "ok" ? {} : { error: errorOf(gated.gate) }),
      });
    } catch (error) {
      return this.crashed(call.tool, started, error);
    }
  }

  /** Gates, then runs the call when they (or a person's bound approval) let it. Never throws. */
  async run(call: ToolCall, context: DispatchContext): Promise<ToolResult> {
    const started = Date.now();
    try {
      const gated = await this.gates(call, context, started);
      if ("done" in gated) return gated.done;
      const { tool, input, binding, gate } = gated;
      const personApproved =
        context.approval != null && verifyBinding(context.approval.binding, tool.name, input);
      if (gate.decision === "deny" || (gate.decision === "ask" && !personApproved)) {
        return base(tool.name, started, {
          status: gate.decision === "deny" ? "denied" : "ask",
          gate,
          binding,
          input,
          error: errorOf(gate),
          ...(gated.preview !== undefined ? { preview: gated.preview } : {}),
        });
      }
      return await this.execute(tool, input, binding, gate, context, started);
    } catch (error) {
      return this.crashed(call.tool, started, error);
    }
  }

  private async gates(call: ToolCall, given: DispatchContext, started: number): Promise<Gated> {
    // The scope the caller enforces replaces the one passed, for every gate below (scope guard first).
    const enforced = await this.deps.enforcedIntent?.(given);
    const context = enforced ? { ...given, activeIntent: enforced.activeIntent } : given;
    let outsideScope: string | null = null;
    const tool = toolNamed(call.tool) ?? (await this.deps.extraTool?.(call.tool)) ?? null;
    if (!tool)
      return {
        done: base(call.tool, started, {
          status: "invalid",
          error: { code: "unknown_tool", message: `There is no tool ${JSON.stringify(call.tool)}.` },
        }),
      };
    const parsed = (tool.input as z.ZodType).safeParse(call.input);
    if (!parsed.success) {
      return {
        done: base(tool.name, started, {
          status: "invalid",
          error: {
            code: "invalid_input",
            message: `The input of ${tool.name} does not match its schema:\n${z.prettifyError(parsed.error)}`,
          },
        }),
      };
    }
    const input = parsed.data;
    const binding = approvalBinding(tool.name, input);
    const denied = (reason: string): Gated => ({
      done: base(tool.name, started, {
        status: "denied",
        gate: { decision: "deny", reason },
        binding,
        input,
        error: { code: "denied", message: reason },
      }),
    });
    // An MCP tool the project turned off is refused as such, before it is asked for an intent.
    if (tool.mcp?.setting === "off") return denied(`The project turned the MCP tool ${tool.name} off.`);
    if (tool.risk !== "safe" && !context.activeIntent) return denied(INTENT_REQUIRED_ERROR);

    const paths = tool.paths(input);
    let realPaths: string[] = [];
    if (paths.length > 0) {
      const realpath = sandboxRealpath(await this.sandbox());
      let guarded = await guardPaths(paths, {
        writes: tool.writes,
        activeIntent: context.activeIntent,
        realpath: tool.actsOnEntry ? entryRealpath(realpath) : realpath,
      });
      // The project asks instead of refusing: outside the enforced scope but inside the one passed,
      // the call goes on to the gates and is asked of a person whatever they would have decided.
      if (!guarded.ok && enforced?.outside === "ask" && given.activeIntent !== context.activeIntent) {
        const passed = await guardPaths(paths, {
          writes: tool.writes,
          activeIntent: given.activeIntent,
          realpath: tool.actsOnEntry ? entryRealpath(realpath) : realpath,
        });
        if (passed.ok) {
          outsideScope = guarded.reason;
          guarded = passed;
        }
      }
      if (!guarded.ok) return denied(guarded.reason);
      realPaths = guarded.realPaths;
    }
    const inspection = tool.inspect ? await tool.inspect(input, await this.runtime()) : undefined;
    const gated = gateToolCall({
      tool,
      input,
      // Asked because it is outside: the gate judges it as it would have without the narrower scope.
      activeIntent: outsideScope ? given.activeIntent : context.activeIntent,
      policy: await this.deps.policy(context),
      realPaths,
      secretFindings: inspection?.secretFindings ?? [],
    });
    const gate: ApprovalDecision =
      outsideScope && gated.decision === "approve"
        ? { decision: "ask", reason: `Outside the run's scope: ${outsideScope}.`, confirm: true }
        : gated;
    return {
      tool,
      input,
      binding,
      gate,
      ...(inspection?.preview !== undefined ? { preview: inspection.preview } : {}),
    };
  }

  private async execute(
    tool: ToolDefinition,
    input: unknown,
    binding: string,
    gate: ApprovalDecision,
    context: DispatchContext,
    started: number,
  ): Promise<ToolResult> {
    const runtime = {
      ...(await this.runtime()),
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.onOutput ? { onOutput: context.onOutput } : {}),
      ...(context.env ? { env: context.env } : {}),
    };
    const ledger = tool.risk !== "safe" && context.traceIds ? this.deps.ledger : undefined;
    const mark = ledger ? await ledger.begin().catch(() => null) : null;
    const output: ToolOutput<unknown> = await tool.execute(input as never, runtime);
    // Collected right after the tool, before anything else runs, so only its own changes count.
    const trace =
      ledger && mark && context.traceIds
        ? await ledger.afterAction(mark, context.traceIds).catch((error: unknown) => {
            this.deps.logger?.warn({ err: error, tool: tool.name }, "trace ledger could not collect");
            return [];
          })
        : [];
    if (output.ok)
      return base(tool.name, started, {
        status: "ok",
        output: output.output,
        exitCode: output.exitCode ?? null,
        gate,
        binding,
        input,
        trace,
        ...(output.data !== undefined ? { data: output.data } : {}),
        ...(output.selectedIntent ? { selectedIntent: output.selectedIntent } : {}),
      });
    return base(tool.name, started, {
      status: "failed",
      output: output.output ?? "",
      exitCode: output.exitCode ?? null,
      timedOut: output.timedOut ?? false,
      aborted: output.aborted ?? false,
      error: { code: output.code, message: output.message },
      gate,
      binding,
      input,
      trace,
    });
  }

  private sandbox(): Promise<Sandbox> {
    this.sandboxPromise ??= this.deps.sandbox().catch((error: unknown) => {
      this.sandboxPromise = null;
      throw error;
    });
    return this.sandboxPromise;
  }

  private async runtime(): Promise<ToolRuntime> {
    return {
      sandbox: await this.sandbox(),
      timeoutMs: this.deps.timeoutMs,
      maxOutputBytes: this.deps.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      workspaceMaxBytes: this.deps.workspaceCap
        ? this.deps.workspaceCap()
        : (this.deps.workspaceMaxBytes ?? null),
    };
  }

  /** Anything unexpected (the sandbox cannot be had, a port threw) is a result, never a crash. */
  private crashed(tool: string, started: number, error: unknown): ToolResult {
    this.deps.logger?.warn({ err: error, tool }, "tool call could not run");
    return base(tool, started, {
      status: "failed",
      error: { code: "sandbox_error", message: errorMessage(error) },
    });
  }
}

function errorOf(gate: ApprovalDecision): ToolResult["error"] {
  if (gate.decision === "approve") return null;
  return gate.decision === "deny"
    ? { code: "denied", message: gate.reason }
    : { code: "needs_approval", message: `Waiting for a person: ${gate.reason}` };
}

function base(
  tool: string,
  started: number,
  fields: Partial<ToolResult> & Pick<ToolResult, "status">,
): ToolResult {
  return {
    tool,
    output: "",
    error: null,
    exitCode: null,
    timedOut: false,
    aborted: false,
    durationMs: Date.now() - started,
    gate: null,
    binding: null,
    input: null,
    trace: [],
    ...fields,
  };
}

/** The whole result as the model reads it: the outcome in words, then the output. */
export function resultText(result: ToolResult): string {
  const head =
    result.status === "ok"
      ? ""
      : `${result.tool} ${result.status === "ask" ? "is waiting for approval" : result.status}: ${result.error?.message ?? "no reason given"}`;
  if (head === "") return result.output;
  return result.output === "" ? head : `${head}\n${result.output}`;
}
