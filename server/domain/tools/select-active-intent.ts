import { z } from "zod";
import { CHANGING_STAGES, defineToolSpec } from "./spec";

/** Seed 003: the project's intents, read by select_active_intent and mirrored from the database. */
export const INTENTS_FILE = ".orchestration/active_intents.yaml";

export const selectActiveIntentSpec = defineToolSpec({
  name: "select_active_intent",
  // Choosing an intent changes only which scope later writes may touch; the writes are gated themselves.
  risk: "safe",
  category: "intent",
  stages: CHANGING_STAGES,
  readOnly: false,
  description: [
    "Declares which intent from .orchestration/active_intents.yaml your next changes serve, and returns its <intent_context>:",
    "the owned_scope (the only paths you may write), its constraints and its acceptance criteria.",
    "Call it before your first change when the task serves one of the project's intents: from then on the run's writes outside its owned_scope are refused",
    "(a step whose scope a person approved stays bound to that narrower scope). Call it again to switch intents. Needs no approval.",
  ].join(" "),
  input: z.strictObject({
    intent_id: z.string().min(1).max(200).describe("The intent's id, e.g. `INT-001`."),
  }),
  // Resolved by the scope guard like any read, so a linked .orchestration cannot lead outside.
  paths: () => [INTENTS_FILE],
  writes: false,
});
