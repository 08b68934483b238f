import { z } from "zod";
import { capEnd } from "@/server/domain/text/cap";
import { argumentsMismatch } from "@/server/domain/text/zod-problems";
import type { ToolName } from "@/server/domain/tools/catalogue";
import { functionNameOf, toolNameOf } from "@/server/domain/tools/wire-names";
import { ScopeGlob } from "@/server/intents/project-intent";
import { toolNamed } from "@/server/tools/registry";
import type { NextAction, Plan } from "./actions";
import { MAX_CHILDREN, MIN_CHILDREN } from "./heuristics/split-task";

/**
 * The tools the model answers with, and the one place their input is checked. Model output is always
 * `safeParse`d against these schemas, never cast; a failure becomes a problem statement the model is
 * shown in its single corrective re-ask.
 */

const MAX_THOUGHT_CHARS = 1_000;
const nonBlank = (max: number) => z.string().max(max).regex(/\S/, "must not be blank");

export const WorkDirectlyInput = z.object({
  thought: nonBlank(4_000).describe("Why one command can do and verify this intention."),
});

export const ChildProposalInput = z.object({
  what: nonBlank(1_000).describe(
    "One concrete step; keep any backticked command exactly as the user wrote it.",
  ),
  acceptance: nonBlank(1_000).describe('How to tell it is done, e.g. "the command `npm test` exits 0".'),
  owned_scope: z
    .array(ScopeGlob)
    .max(20)
    .optional()
    .describe(
      "Optional: globs relative to the workspace root of the only files this child should change (e.g. `src/auth/**`). " +
        "Once the person approves, writes there need no further click while the child's acceptance check is not failing.",
    ),
});

export const ProposeDecompositionInput = z.object({
  thought: nonBlank(4_000).describe("Why the intention cannot be verified directly and how the split helps."),
  children: z
    .array(ChildProposalInput)
    .min(MIN_CHILDREN)
    .max(MAX_CHILDREN)
    .describe(`Between ${MIN_CHILDREN} and ${MAX_CHILDREN} children, in the order they must be done.`),
});

export const CannotDecomposeInput = z.object({
  reason: nonBlank(4_000).describe("Why this intention cannot be split into smaller verifiable steps."),
});

export const TOOL_DESCRIPTIONS = {
  work_directly:
    "Use when the intention is one step that a single shell command can do and whose success its exit code shows. " +
    "The agent will then choose and run that command.",
  propose_decomposition:
    `Use when the intention joins several steps or is too large to check with one command. Give ${MIN_CHILDREN}–${MAX_CHILDREN} ` +
    "children, each smaller and easier to verify than the whole, each with a checkable acceptance criterion.",
  cannot_decompose:
    "Use only when the intention is already one indivisible step: no split into smaller, separately verifiable steps exists.",
} as const;

export interface ToolCallLike {
  toolName: string;
  input: unknown;
  /** The provider's id of the call, needed to send its result back in the same turn. */
  toolCallId?: string;
}

export type Interpretation<T> = { ok: true; value: T } | { ok: false; problem: string };

function capThought(thought: string): string {
  return capEnd(thought.trim(), MAX_THOUGHT_CHARS);
}

function noToolCall(text: string, expected: readonly string[]): string {
  const said = text.trim() === "" ? "" : `: "${text.trim().slice(0, 200)}"`;
  return `you answered with text instead of calling ${expected.join(" or ")}${said}`;
}

function pickCall(
  calls: readonly ToolCallLike[],
  expected: readonly string[],
  text: string,
): Interpretation<ToolCallLike> {
  if (calls.length === 0) return { ok: false, problem: noToolCall(text, expected) };
  const call = calls.find((candidate) => expected.includes(candidate.toolName));
  if (!call)
    return {
      ok: false,
      problem: `you called ${calls[0]?.toolName}, which is not one of ${expected.join(", ")}`,
    };
  return { ok: true, value: call };
}

export const PLAN_TOOLS = ["work_directly", "propose_decomposition"] as const;
export const FORCED_PLAN_TOOLS = ["propose_decomposition", "cannot_decompose"] as const;

export function interpretPlan(
  calls: readonly ToolCallLike[],
  text: string,
  expected: readonly string[] = PLAN_TOOLS,
): Interpretation<Plan> {
  const picked = pickCall(calls, expected, text);
  if (!picked.ok) return picked;
  const { toolName, input } = picked.value;
  if (toolName === "cannot_decompose") {
    const parsed = CannotDecomposeInput.safeParse(input);
    if (!parsed.success) return { ok: false, problem: argumentsMismatch(toolName, parsed.error) };
    return { ok: true, value: { kind: "atomic", thought: capThought(parsed.data.reason) } };
  }
  if (toolName === "work_directly") {
    const parsed = WorkDirectlyInput.safeParse(input);
    if (!parsed.success) return { ok: false, problem: argumentsMismatch(toolName, parsed.error) };
    return { ok: true, value: { kind: "direct", thought: capThought(parsed.data.thought) } };
  }
  const parsed = ProposeDecompositionInput.safeParse(input);
  if (!parsed.success) return { ok: false, problem: argumentsMismatch(toolName, parsed.error) };
  const children = parsed.data.children.map((child) => ({
    what: child.what.trim(),
    acceptance: child.acceptance.trim(),
    ...(child.owned_scope && child.owned_scope.length > 0 ? { ownedScope: child.owned_scope } : {}),
  }));
  return { ok: true, value: { kind: "decompose", thought: capThought(parsed.data.thought), children } };
}

/**
 * The act step's answer: a call of one of the registry tools offered (function names such as
 * `fs_write`, see tool-names.ts), with a `thought` next to the tool's own arguments. The arguments are
 * checked against the tool's schema here only to give the model a precise corrective re-ask; the tool
 * dispatch parses them again before anything runs.
 */
export function interpretAction(
  calls: readonly ToolCallLike[],
  text: string,
  offered: readonly ToolName[],
  extra: readonly string[] = [],
): Interpretation<NextAction> {
  const picked = pickCall(calls, [...offered.map(functionNameOf), ...extra], text);
  if (!picked.ok) return picked;
  const { toolName, input } = picked.value;
  // A project's MCP tool: its server checks the arguments against its own schema (through the dispatch).
  if (extra.includes(toolName)) {
    if (typeof input !== "object" || input === null || Array.isArray(input))
      return { ok: false, problem: `the arguments of ${toolName} must be a JSON object` };
    const { thought, ...args } = input as Record<string, unknown>;
    const said = typeof thought === "string" && thought.trim() !== "" ? thought : `Call ${toolName}.`;
    return { ok: true, value: { thought: capThought(said), tool: toolName, input: args } };
  }
  const tool = toolNameOf(toolName);
  const definition = tool ? toolNamed(tool) : null;
  if (!tool || !definition) return { ok: false, problem: `there is no tool ${toolName}` };
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return { ok: false, problem: `the arguments of ${toolName} must be a JSON object` };
  const { thought, ...args } = input as Record<string, unknown>;
  const parsed = (definition.input as z.ZodType).safeParse(args);
  if (!parsed.success) return { ok: false, problem: argumentsMismatch(toolName, parsed.error) };
  const said = typeof thought === "string" && thought.trim() !== "" ? thought : `Call ${tool}.`;
  return { ok: true, value: { thought: capThought(said), tool, input: args } };
}
