import { z } from "zod";
import { TestResults } from "@/server/domain/contract/test-results";
import { Judgment, ReasoningSwitch, UserMode } from "@/server/domain/vocabulary/session";
import { RoleName } from "./roles";
import { Action, GateRecord, text } from "./shared";

/** A cycle begins: the thought and the concrete action it is about to run. */
export const CycleStartedBody = z.object({
  type: z.literal("cycle-started"),
  runId: z.string(),
  intentionId: z.string(),
  cycleId: z.string(),
  index: z.number().int().nonnegative(),
  thought: text,
  action: Action,
  /** The command approval this cycle carries out, if a person was asked. */
  approvalId: z.string().nullable().default(null),
  gate: GateRecord.nullable().default(null),
});

/**
 * A read-only tool call the model made inside its act turn, before choosing the cycle's action
 * (seed 001's micro-step): which tool, its input in short, how it went and what it returned (capped).
 * `cycleIndex` is the index of the cycle the reads led to.
 */
export const ToolCalledBody = z.object({
  type: z.literal("tool-called"),
  runId: z.string(),
  intentionId: z.string(),
  cycleIndex: z.number().int().nonnegative(),
  tool: z.string().max(100),
  input: z.string().max(2_000),
  status: z.enum(["ok", "failed", "denied", "ask", "invalid"]),
  output: z.string().max(20_000),
  durationMs: z.number().nonnegative(),
});

/** What the action produced. `output` is capped; `error` is set when the action could not run at all. */
export const CycleResultBody = z.object({
  type: z.literal("cycle-result"),
  runId: z.string(),
  intentionId: z.string(),
  cycleId: z.string(),
  exitCode: z.number().int().nullable(),
  output: text,
  timedOut: z.boolean(),
  error: z.string().nullable(),
  durationMs: z.number().nonnegative(),
  /** A test command's counts, read from its printed summary (absent: not a test command, or none found). */
  tests: TestResults.optional(),
  /** The server stopped while the action ran (a crash, `kill -9`): closed on resume, never re-run blindly. */
  interrupted: z.boolean().optional(),
});

export const CycleJudgedBody = z.object({
  type: z.literal("cycle-judged"),
  runId: z.string(),
  intentionId: z.string(),
  cycleId: z.string(),
  judgment: Judgment,
  judgedBy: z.string(),
  reason: z.string(),
});

export const CycleReflectedBody = z.object({
  type: z.literal("cycle-reflected"),
  runId: z.string(),
  intentionId: z.string(),
  cycleId: z.string(),
  reflection: text,
});

/** One model request: which stage asked, which model answered, what it cost in tokens and time. */
export const LlmCalledBody = z.object({
  type: z.literal("llm-called"),
  runId: z.string(),
  intentionId: z.string().nullable(),
  stage: z.string(),
  modelId: z.string(),
  offline: z.boolean(),
  tokensIn: z.number().int().nonnegative(),
  tokensOut: z.number().int().nonnegative(),
  latencyMs: z.number().nonnegative(),
  error: z.string().nullable(),
  /** Tokens × the configured price of this model, in US dollars; null when the model has no price. */
  costUsd: z.number().nonnegative().nullable().default(null),
  /** Seed 001 §9.1: the user's mode and reasoning switch the request was built for (null: not recorded). */
  mode: UserMode.nullable().default(null),
  reasoning: ReasoningSwitch.nullable().default(null),
  /** The workspace tools offered to the model (vocabulary names such as `fs.read`). */
  tools: z.array(z.string().max(80)).max(40).default([]),
  toolCount: z.number().int().nonnegative().default(0),
  /** Full mode's helper role that made the call; null: the Artisan (the act step) or no role. */
  role: RoleName.nullable().default(null),
});

/**
 * This family's event types (one thought → action → result → judgment attempt, and its model calls).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const CYCLE_EVENTS = [
  CycleStartedBody,
  ToolCalledBody,
  CycleResultBody,
  CycleJudgedBody,
  CycleReflectedBody,
  LlmCalledBody,
] as const;
