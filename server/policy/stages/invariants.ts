import type { ReasoningSwitch, Stage, UserMode } from "@/server/domain/vocabulary/stages";
import type { StagePolicy } from "./policy";
import { REASONING_MARKER } from "./prompt-variables";

/**
 * Seed 001 §9: every model request is checked against the stage policy before it is sent. A violation
 * means some code path changed the user's mode, the user's reasoning switch or the tool subset on its
 * own — exactly the bugs the seed says must never ship. Development throws so tests and local runs
 * fail loudly; production logs and carries on, because a broken invariant in a live run is better
 * reported than turned into a crashed session.
 */

/** What is about to be sent, as the request builder assembled it. */
export interface ModelRequestFacts {
  runId: string;
  stage: Stage;
  /** The mode the request was built for; must be the user's. */
  mode: UserMode;
  reasoning: ReasoningSwitch;
  /** Tool names offered to the model. */
  tools: readonly string[];
  /**
   * "exact" (default): the tools must be the policy's subset, no more, no less. "subset": a request
   * that offers fewer (the agent's act step offers `shell.exec` only) passes, but never one more.
   */
  toolMatch?: "exact" | "subset";
  /** The composed system prompt. */
  system: string;
}

export const VIOLATION_KINDS = ["stage", "mode", "reasoning", "reasoning-instruction", "tools"] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

export interface InvariantViolation {
  kind: ViolationKind;
  message: string;
}

export type InvariantBehaviour = "throw" | "log";

export class InvariantViolationError extends Error {
  constructor(readonly violations: readonly InvariantViolation[]) {
    super(`Model request breaks stage policy: ${violations.map((v) => v.message).join("; ")}`);
    this.name = "InvariantViolationError";
  }
}

export interface AssertOptions {
  mode: InvariantBehaviour;
  /** Called once with every violation when `mode` is "log" and something is wrong. */
  log?: (violations: readonly InvariantViolation[], fields: RequestLogFields) => void;
}

/** Seed 001 §9.1: the fields every model request is logged with. */
export interface RequestLogFields {
  runId: string;
  stage: Stage;
  userMode: UserMode;
  reasoningEnabled: boolean;
  toolCount: number;
  tools: readonly string[];
}

export function requestLogFields(request: ModelRequestFacts): RequestLogFields {
  return {
    runId: request.runId,
    stage: request.stage,
    userMode: request.mode,
    reasoningEnabled: request.reasoning === "on",
    toolCount: request.tools.length,
    tools: request.tools,
  };
}

/** Development and test throw; production logs. Takes the value so this module never reads the env. */
export function invariantBehaviourFor(nodeEnv: string | undefined): InvariantBehaviour {
  return nodeEnv === "production" ? "log" : "throw";
}

export function findViolations(request: ModelRequestFacts, policy: StagePolicy): InvariantViolation[] {
  const violations: InvariantViolation[] = [];
  if (request.stage !== policy.stage) {
    violations.push({
      kind: "stage",
      message: `request stage ${request.stage} ≠ policy stage ${policy.stage}`,
    });
  }
  if (!policy.allowed) {
    violations.push({ kind: "stage", message: policy.reason ?? `${policy.stage} is not allowed` });
  }
  if (request.mode !== policy.mode) {
    violations.push({ kind: "mode", message: `request mode ${request.mode} ≠ user mode ${policy.mode}` });
  }
  if (request.reasoning !== policy.reasoning) {
    violations.push({
      kind: "reasoning",
      message: `request reasoning ${request.reasoning} ≠ user switch ${policy.reasoning}`,
    });
  }
  const hasInstruction = request.system.includes(REASONING_MARKER);
  if (hasInstruction !== policy.reasoningRequired) {
    violations.push({
      kind: "reasoning-instruction",
      message: policy.reasoningRequired
        ? "reasoning is on but the system prompt has no reasoning instruction"
        : "reasoning is off but the system prompt asks for reasoning",
    });
  }
  const allowedTools = new Set<string>(policy.tools);
  const extra = request.tools.filter((tool) => !allowedTools.has(tool));
  const missing =
    request.toolMatch === "subset" ? [] : policy.tools.filter((tool) => !request.tools.includes(tool));
  const duplicated = request.tools.length !== new Set(request.tools).size;
  if (extra.length > 0 || missing.length > 0 || duplicated) {
    const parts = [
      ...(extra.length > 0 ? [`not allowed: ${extra.join(", ")}`] : []),
      ...(missing.length > 0 ? [`missing: ${missing.join(", ")}`] : []),
      ...(duplicated ? ["a tool is offered twice"] : []),
    ];
    violations.push({ kind: "tools", message: `tools ≠ policy for ${policy.stage} (${parts.join("; ")})` });
  }
  return violations;
}

/** Returns the violations (empty when the request is sound); throws or logs them as `options.mode` says. */
export function assertRequestInvariants(
  request: ModelRequestFacts,
  policy: StagePolicy,
  options: AssertOptions,
): InvariantViolation[] {
  const violations = findViolations(request, policy);
  if (violations.length === 0) return violations;
  if (options.mode === "throw") throw new InvariantViolationError(violations);
  options.log?.(violations, requestLogFields(request));
  return violations;
}
