import { z } from "zod";
import type { RequestContext } from "../request-check";

/**
 * The delivery check (seed 001 §2.5, stage `delivery_check`): once the root settled, the run's model
 * is asked whether the user's request is delivered. It has no workspace tools — it judges, it does not
 * act — and answers with `submit_delivery`.
 */

export const SUBMIT_DELIVERY = "submit_delivery";

/** Caps keep a verbose model from filling the log and the delivery line. */
export const MAX_MISSING = 8;

export const SubmitDeliveryInput = z.object({
  state: z.enum(["DONE", "NEEDS_WORK"]),
  reason: z.string().min(1).max(1_000),
  missing: z.array(z.string().min(1).max(300)).max(MAX_MISSING).default([]),
});
export type DeliveryAnswer = z.infer<typeof SubmitDeliveryInput>;

export const SUBMIT_DELIVERY_DESCRIPTION = [
  "Submit your judgement of whether the user's request is delivered. `state`: DONE only when every",
  "part of the request is done and verified, else NEEDS_WORK. `reason`: one or two sentences for the",
  "user. `missing`: what is still to do, one short item each (empty when DONE).",
].join(" ");

/** What the check is given: the request and the tree's outcome, from the folded log alone. */
export interface DeliveryCheckInput {
  /** The user's request (the run's root intention). */
  task: string;
  /** How the root ended: its status and, when verified, what verified it. */
  rootStatus: "VERIFIED" | "FAILED" | string;
  /** One line per intention: status and its verified-by line (or why it failed), capped. */
  outcome: string[];
  /** The advisory QA reports' verdicts and summaries, when QA ran; empty otherwise. */
  qa: string[];
  /** The project's AGENTS.md / CLAUDE.md, within the request budget (issue #21.1); absent: none. */
  instructions?: string;
  request?: RequestContext;
}
