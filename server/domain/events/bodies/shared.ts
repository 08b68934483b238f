import { z } from "zod";
import { MAX_STEP_CHARS } from "@/server/domain/text/fit-text";
import { ActionType } from "@/server/domain/vocabulary/session";

/** Pieces several event bodies share. */

export const text = z.string().max(200_000);

/**
 * `ownedScope`: owned_scope globs proposed for the child (relative to /workspace). A person approving
 * the decomposition approves them with the child's acceptance check (see `intention-created`).
 */
export const ChildProposal = z.object({
  what: z
    .string()
    .min(1, "A step cannot be empty.")
    .max(MAX_STEP_CHARS, "A step has at most 2,000 characters."),
  acceptance: z.string().max(MAX_STEP_CHARS, "An acceptance has at most 2,000 characters."),
  ownedScope: z.array(z.string().min(1).max(300)).max(20).default([]),
});
export type ChildProposal = z.infer<typeof ChildProposal>;
export type ChildProposalInput = z.input<typeof ChildProposal>;

/** What the command gate decided before an action ran: by policy, or the person who approved it. */
export const GateRecord = z.object({
  decision: z.enum(["approve", "deny", "ask"]),
  reason: z.string().max(2_000),
});
export type GateRecord = z.infer<typeof GateRecord>;

/**
 * A tool call as recorded: the registry's tool name and its input (a JSON object). The dispatch parses
 * the input with the tool's schema before anything runs; this shape only keeps it readable in the log.
 */
export const ToolCallBody = z.object({
  tool: z.string().min(1).max(100),
  input: z.record(z.string(), z.unknown()),
});
export type ToolCallBody = z.infer<typeof ToolCallBody>;

/**
 * A cycle's action (seed 000's Action types). `content` is what a reader sees (the command, the
 * file's new content, the search/replace); `tool` and `input` (long strings capped) keep the call
 * itself for replay and export. Logs written before tool calls read as shell commands (null).
 */
export const Action = z.object({
  type: ActionType,
  content: text,
  target: z.string().nullable().default(null),
  tool: z.string().max(100).nullable().default(null),
  input: z.record(z.string(), z.unknown()).nullable().default(null),
});
export type Action = z.infer<typeof Action>;
