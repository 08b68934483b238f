import { z } from "zod";

/**
 * What a person reads on a run, a session or a node (issue #17.4): one vocabulary for all three,
 * shown the same on the session page, the project's session list, the replay and the dashboard.
 * It is derived from the stored statuses (`RunStatus`, `IntentionStatus`) and the log
 * (`server/domain/session/shown-status.ts`), never stored: the engine's statuses, and what VERIFIED
 * means there, are unchanged.
 *
 * - WORKING: a run that is going, or the node it works on now.
 * - WAITING: a run (or node) that waits for a person's answer to an approval card.
 * - PENDING: a node that is queued and will start when its turn comes.
 * - NOT_STARTED: a node that never started because its run ended first (a sibling failed, a stop).
 * - VERIFIED: checked; what it rests on is the evidence kind shown next to it (`EVIDENCE_LABELS`).
 * - ANSWERED: a read-only answer came (an answer is not a verification).
 * - FAILED: it ended without being verified, or the answer did not come.
 * - STOPPED: a person (or a budget stop) ended the run; the node that was working shows it too.
 * - SANDBOX_LOST: a session whose sandbox's Docker host stopped answering, until it is restarted
 *   elsewhere (the log's `sandbox-lost`; never a run's or a node's own status).
 */
export const SHOWN_STATUSES = [
  "WORKING",
  "WAITING",
  "PENDING",
  "NOT_STARTED",
  "VERIFIED",
  "ANSWERED",
  "FAILED",
  "STOPPED",
  "SANDBOX_LOST",
] as const;
export const ShownStatus = z.enum(SHOWN_STATUSES);
export type ShownStatus = z.infer<typeof ShownStatus>;

/** The words on the badge. */
export const SHOWN_STATUS_LABELS: Record<ShownStatus, string> = {
  WORKING: "WORKING",
  WAITING: "WAITING FOR YOU",
  PENDING: "PENDING",
  NOT_STARTED: "NOT STARTED",
  VERIFIED: "VERIFIED",
  ANSWERED: "ANSWERED",
  FAILED: "FAILED",
  STOPPED: "STOPPED",
  SANDBOX_LOST: "SANDBOX LOST",
};

/** The badge's colour family (each passes WCAG AA contrast in both themes: app/globals.css). */
export const SHOWN_STATUS_TONES: Record<ShownStatus, "info" | "ok" | "warn" | "danger" | "neutral"> = {
  WORKING: "info",
  WAITING: "warn",
  PENDING: "neutral",
  NOT_STARTED: "neutral",
  VERIFIED: "ok",
  ANSWERED: "info",
  FAILED: "danger",
  STOPPED: "warn",
  SANDBOX_LOST: "danger",
};

/** One sentence per status, for the badge's title and the README's table. */
export const SHOWN_STATUS_MEANINGS: Record<ShownStatus, string> = {
  WORKING: "The run is going; on a node, the agent is working on it now.",
  WAITING: "An approval card waits for a person's answer; nothing runs until it is answered.",
  PENDING: "Queued: the node starts when the nodes before it are done.",
  NOT_STARTED: "The run ended before this node's turn (a sibling failed, or the run was stopped).",
  VERIFIED: "A check red before the work passed after it (or a named person accepted it).",
  ANSWERED: "A read-only answer came; nothing was changed or verified.",
  FAILED: "It ended without being verified, with the reason shown; or no answer came.",
  STOPPED: "A person stopped the run; the node it was working on shows it too.",
  SANDBOX_LOST:
    "The sandbox's Docker host stopped answering; restart it on another host from the last snapshot.",
};
