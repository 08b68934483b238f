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
  /**
   * What the phase was applied with, so a restarted server can give it back (issue #19); absent on
   * events written before.
   */
  getHeadOnly: z.boolean().optional(),
  allowList: z.array(z.string()).optional(),
  /** Given back by a server that (re)started while the sandbox ran, from the last such event. */
  restored: z.boolean().optional(),
});

/**
 * The project's setup command starts (its output streams to live readers until `setup-ran`). `runner`
 * says where: in the session's own sandbox, or — for a gVisor session, which has no network — in a
 * hardened runc container of its own that fills the project's cache volume the gVisor sandbox mounts.
 */
export const SetupStartedBody = z.object({
  type: z.literal("setup-started"),
  runId: z.string(),
  command: z.string(),
  runner: z.enum(["sandbox", "runc-for-gvisor"]).default("sandbox"),
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
  /** Where it ran (see SetupStartedBody); absent in logs written before gVisor setups. */
  runner: z.enum(["sandbox", "runc-for-gvisor"]).default("sandbox"),
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

/**
 * The egress proxy the sandbox's phase goes through stopped (`down`: nothing gets out, the phase runs
 * as Off) or was made again with the phase's rule (`back`), without any phase change (issue #19: the
 * proxy container on another Docker host is checked on the host's health interval).
 */
export const EgressInterruptedBody = z.object({
  type: z.literal("egress-interrupted"),
  phase: Phase,
  state: z.enum(["down", "back"]),
  /** The Docker host whose proxy it is. */
  host: z.string(),
  message: z.string(),
});

/**
 * This family's event types (the sandbox's network per phase, setup, egress connections).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const ENVIRONMENT_EVENTS = [
  EgressPhaseSetBody,
  SetupStartedBody,
  SetupRanBody,
  EgressConnectionBody,
  EgressInterruptedBody,
] as const;
