import { z } from "zod";

/**
 * The session sandbox's environment: which network each phase got, the project's setup command and
 * every connection through (or refused by) the egress proxy. No setup secret is ever part of these.
 */

const Phase = z.enum(["setup", "agent"]);
const Mode = z.enum(["off", "registries", "custom", "open"]);

/** A phase's network was applied to the sandbox; `applied` may be less than `requested`, never more. */
export const EgressPhaseSetBody = z.object({
  type: z.literal("egress-phase-set"),
  runId: z.string(),
  phase: Phase,
  requested: Mode,
  applied: Mode,
  problem: z.string().nullable(),
});

/** The project's setup command ran once in the new workspace (or was skipped, with the reason). */
export const SetupRanBody = z.object({
  type: z.literal("setup-ran"),
  runId: z.string(),
  command: z.string(),
  status: z.enum(["ok", "failed", "skipped"]),
  /** Why it was skipped or failed, in words for the page. */
  reason: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  /** The output's tail (capped); secrets are redacted by the store like every event. */
  output: z.string(),
  durationMs: z.number().nonnegative(),
  /** Names of setup secrets that could not be opened (a changed ARBOR_SECRET_KEY). */
  unreadableSecrets: z.array(z.string()).default([]),
});

/** One connection through the egress proxy, from its access log. */
export const EgressConnectionBody = z.object({
  type: z.literal("egress-connection"),
  phase: Phase,
  method: z.string(),
  host: z.string(),
  port: z.number().int(),
  allowed: z.boolean(),
  /** Why it was refused (raw-ip, not-listed, method, phase-off, private-address); null when allowed. */
  reason: z.string().nullable(),
  /** Which setting would allow it, for a refused one. */
  advice: z.string().nullable(),
  status: z.number().int(),
  bytesOut: z.number().int().nonnegative(),
  bytesIn: z.number().int().nonnegative(),
});
