import { z } from "zod";

/**
 * Full mode's helper roles at work (seed 002): what the Librarian ranked and read for the Artisan,
 * what the Critic said about the Artisan's change, and which adversarial test Chaos wrote. The
 * model call itself is the `llm-called` next to it (with its `role`); this is what it said.
 */

export const ROLE_NAMES = ["librarian", "critic", "chaos"] as const;
export const RoleName = z.enum(ROLE_NAMES);
export type RoleName = z.infer<typeof RoleName>;

const line = z.string().max(600);

export const RoleReportedBody = z.object({
  type: z.literal("role-reported"),
  runId: z.string(),
  intentionId: z.string(),
  /** The cycle the role worked for: the index the intention's next cycle gets. */
  cycleIndex: z.number().int().nonnegative(),
  role: RoleName,
  modelId: z.string().max(500),
  /** Who answered: the model, or the offline heuristics (no model, or the model failed). */
  source: z.enum(["model", "heuristics"]),
  summary: z.string().max(1_000),
  /** Librarian: the ranked files, and which of them were read for the Artisan. */
  files: z
    .array(z.object({ path: line, why: line, read: z.boolean() }))
    .max(20)
    .default([]),
  /** Critic: approve lets the change go on to the gate; revise fails the cycle before anyone is asked. */
  verdict: z.enum(["approve", "revise"]).nullable().default(null),
  issues: z.array(line).max(10).default([]),
  /** Chaos: the adversarial test written first, and the command that runs it. */
  test: z.object({ path: line, command: line, attack: line }).nullable().default(null),
});
export type RoleReportedBody = z.infer<typeof RoleReportedBody>;

/**
 * This family's event types (full mode's Librarian, Critic and Chaos).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const ROLE_EVENTS = [RoleReportedBody] as const;
