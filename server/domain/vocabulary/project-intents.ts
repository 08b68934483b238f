import { z } from "zod";

/**
 * The vocabulary of a project's intents (seed 003's `active_intents.yaml` entries): their statuses
 * and the shape of an intent id. Shared by the intents store, the router and the project page.
 */

export const INTENT_STATUSES = ["PLANNED", "IN_PROGRESS", "BLOCKED", "DONE", "RETIRED"] as const;
export const IntentStatus = z.enum(INTENT_STATUSES);
export type IntentStatus = z.infer<typeof IntentStatus>;

export const INTENT_ID_PATTERN = /^[A-Z][A-Z0-9]*-[0-9]{1,6}$/;

export const IntentId = z
  .string()
  .trim()
  .regex(INTENT_ID_PATTERN, "An intent id is capital letters, a dash and a number, like INT-001.");
