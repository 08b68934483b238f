import "server-only";
import { z } from "zod";
import { MAX_TASK_CHARS, MAX_TASK_MESSAGE } from "@/server/domain/text/fit-text";

/**
 * Text a person types, with its caps and the message they see at cap + 1 (never a bare "Too big").
 * One place, so the caps and their wording are tested together (user-text.test.ts).
 */

/** A task for the agent: up to ~100 KB, so a pasted stack trace or log fits whole. */
export const TaskText = z
  .string()
  .trim()
  .min(1, "Type a task for the agent first.")
  .max(MAX_TASK_CHARS, MAX_TASK_MESSAGE);

export const MAX_EDITED_COMMAND_CHARS = 20_000;
/** A command as the person edited it on an approval card. */
export const EditedCommand = z
  .string()
  .trim()
  .min(1, "The command cannot be empty.")
  .max(MAX_EDITED_COMMAND_CHARS, "A command has at most 20,000 characters.");

export const MAX_REASON_CHARS = 2_000;
/** Why a person rejected a card. */
export const DecisionReason = z
  .string()
  .trim()
  .max(MAX_REASON_CHARS, "A reason has at most 2,000 characters; the card keeps it short.");

export const MAX_COMMIT_MESSAGE_CHARS = 2_000;
/** The commit message a person gives when saving the session's work. */
export const CommitMessage = z
  .string()
  .trim()
  .max(MAX_COMMIT_MESSAGE_CHARS, "A commit message has at most 2,000 characters.");
