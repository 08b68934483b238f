import { z } from "zod";
import { DiscoveredIntent } from "@/server/domain/intent/discovered-intent";
import { UserSettings } from "@/server/domain/settings/user-config";
import { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import {
  FinalRunStatus,
  MessageRole,
  ReasoningSwitch,
  RunRoute,
  UserMode,
} from "@/server/domain/vocabulary/session";
import { text } from "./shared";

/** A chat message from the user, the agent or the system (errors, notices). */
export const MessagePostedBody = z.object({
  type: z.literal("message-posted"),
  messageId: z.string(),
  runId: z.string().nullable(),
  role: MessageRole,
  text,
});

/** A task handed to the agent; `model` records which model answered and whether it is offline. */
export const RunStartedBody = z.object({
  type: z.literal("run-started"),
  runId: z.string(),
  task: text,
  mode: UserMode,
  /** `provider` (openai, anthropic, openai-compatible) since model settings; never the API key. */
  model: z.object({
    id: z.string(),
    label: z.string(),
    offline: z.boolean(),
    provider: z.string().optional(),
  }),
  /** The user who gave the task (null in logs written before this was recorded). */
  startedBy: z.string().nullable().default(null),
  /** The person's reasoning switch when they sent it ("off" in logs from before the switch existed). */
  reasoning: ReasoningSwitch.default("off"),
  /**
   * The person's model overrides for this run, as sent (provider, model name, timeout, offline; never a
   * key or a base URL), so a restart resolves exactly what the start did and checks it got the same
   * model and tiers. Absent in logs from before restarts were made faithful.
   */
  startedWith: z
    .object({
      provider: z.string().max(100).optional(),
      modelName: z.string().max(200).optional(),
      timeoutMs: z.number().int().positive().optional(),
      offline: z.literal(true).optional(),
    })
    .optional(),
  /**
   * Issue #20: the server keys of the person's CLI user file (`~/.config/arbor/config.yaml`), sent
   * with this run and applied as a person layer over their stored one (model name and timeout beat
   * it; checkpoints, limits and budgets only ever tighten). Kept here so a resumed run, on any
   * instance, applies exactly the same layer; `ignored` is what the file set that was looser than the
   * layers below when the run started, with the reason. Absent: the run was started without one.
   */
  cliConfig: z
    .object({
      settings: UserSettings,
      ignored: z
        .array(
          z.object({ key: z.string().max(200), value: z.string().max(2_000), reason: z.string().max(500) }),
        )
        .max(100),
    })
    .optional(),
});

/**
 * Issue #15: the server came back (after a crash or a restart) and resumes this run. The time it was
 * down, since the run's last event, counts against the run's wall clock like any other time (a
 * limit on how long a run takes must not grow because the server was off), unless a person's answer
 * was pending then: that time was waiting for them, which never counts (`counted` false).
 */
export const RunResumedBody = z.object({
  type: z.literal("run-resumed"),
  runId: z.string(),
  downMs: z.number().nonnegative(),
  counted: z.boolean(),
});

/**
 * How the run's message is handled and why (the router's classification). Never changes the run's
 * mode: an Agent-mode question answered read-only is still recorded and requested as Agent mode.
 */
export const RunRoutedBody = z.object({
  type: z.literal("run-routed"),
  runId: z.string(),
  route: RunRoute,
  /** The router's request kind (question, fix, run, …). */
  kind: z.string().max(40),
  reason: z.string().max(2_000),
});

/** A read-only tool call made while answering (the answer path), shown under the answer. */
export const AnswerToolCalledBody = z.object({
  type: z.literal("answer-tool-called"),
  runId: z.string(),
  callId: z.string(),
  tool: z.string().max(80),
  /** The path or pattern it looked at, for the person reading the answer. */
  target: z.string().max(500),
  status: z.enum(["ok", "failed", "denied", "ask", "invalid", "refused", "capped"]),
  /** A short excerpt of what it returned or why it failed (the model saw the whole result). */
  summary: z.string().max(2_000),
});

/** Intent discovery: what was asked, what the workspace is, what earlier sessions taught. */
export const IntentDiscoveredBody = z.object({
  type: z.literal("intent-discovered"),
  runId: z.string(),
  intent: DiscoveredIntent,
});

/** The container this session's tools run in is ready. */
export const SandboxReadyBody = z.object({
  type: z.literal("sandbox-ready"),
  runId: z.string(),
  containerName: z.string(),
  image: z.string(),
  reused: z.boolean(),
  durationMs: z.number().nonnegative(),
  /** runc or runsc (gVisor); absent in logs written before projects could choose. */
  runtime: SandboxRuntime.optional(),
});

export const RunEndedBody = z.object({
  type: z.literal("run-ended"),
  runId: z.string(),
  status: FinalRunStatus,
  reason: z.string(),
});

/**
 * This family's event types (a run's life: messages, start, routing, resume, discovery, sandbox, end).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const RUN_EVENTS = [
  MessagePostedBody,
  RunStartedBody,
  RunResumedBody,
  RunRoutedBody,
  AnswerToolCalledBody,
  IntentDiscoveredBody,
  SandboxReadyBody,
  RunEndedBody,
] as const;
