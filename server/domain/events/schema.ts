import { z } from "zod";
import { APPROVAL_EVENTS } from "@/server/domain/events/bodies/approval";
import { CHECK_EVENTS } from "@/server/domain/events/bodies/checks";
import { CONTEXT_EVENTS } from "@/server/domain/events/bodies/context";
import { CYCLE_EVENTS } from "@/server/domain/events/bodies/cycle";
import { EDITOR_FILE_EVENTS } from "@/server/domain/events/bodies/editor-files";
import { ENVIRONMENT_EVENTS } from "@/server/domain/events/bodies/environment";
import { INTENTION_EVENTS } from "@/server/domain/events/bodies/intention";
import { QA_EVENTS } from "@/server/domain/events/bodies/qa";
import { REASONING_EVENTS } from "@/server/domain/events/bodies/reasoning";
import { ROLE_EVENTS } from "@/server/domain/events/bodies/roles";
import { RUN_EVENTS } from "@/server/domain/events/bodies/run";
import { SANDBOX_EVENTS } from "@/server/domain/events/bodies/sandbox";
import { WORKSPACE_EVENTS } from "@/server/domain/events/bodies/workspace";
import { TIER_EVENTS } from "./tier-schema";
import { TRACE_EVENTS } from "./trace-schema";

export {
  Action,
  ChildProposal,
  type ChildProposalInput,
  GateRecord,
  ToolCallBody,
} from "@/server/domain/events/bodies/shared";

/**
 * The one event union. Every change to a session is one of these, appended to the session's log
 * with a sequence number (see `StoredEvent`). Server projections, the live view and replay all fold
 * the same events, so they cannot disagree.
 *
 * Ids: `sessionId` is implied by the log the event lives in; `runId` names one task given to the
 * agent; `intentionId` a node of the intention tree; `cycleId` one thought→action→result→judgment
 * attempt; `approvalId` one question waiting for a person.
 *
 * Each family of event types lives in one file (server/domain/events/bodies/*.ts, tier-schema.ts,
 * trace-schema.ts) and lists its members in an `…_EVENTS` tuple; the union is their concatenation.
 * Adding an event type: its schema and its place in its family's tuple, then its fold handler in
 * server/domain/session/fold.ts (TypeScript refuses the build until there is one). See the README.
 */

export const EventBody = z.discriminatedUnion("type", [
  ...RUN_EVENTS,
  ...SANDBOX_EVENTS,
  ...INTENTION_EVENTS,
  ...CHECK_EVENTS,
  ...APPROVAL_EVENTS,
  ...CYCLE_EVENTS,
  ...REASONING_EVENTS,
  ...TIER_EVENTS,
  ...CONTEXT_EVENTS,
  ...TRACE_EVENTS,
  ...WORKSPACE_EVENTS,
  ...EDITOR_FILE_EVENTS,
  ...QA_EVENTS,
  ...ROLE_EVENTS,
  ...ENVIRONMENT_EVENTS,
]);
/** An event as read back (defaults applied). */
export type EventBody = z.infer<typeof EventBody>;
/** An event as written: optional fields may be left out, the log fills their defaults when it parses. */
export type EventInput = z.input<typeof EventBody>;
export type EventType = EventBody["type"];
export type EventOf<T extends EventType> = Extract<EventBody, { type: T }>;

/** An event as stored: the body plus its place in the session's log. */
export const StoredEvent = z.object({
  seq: z.number().int().positive(),
  at: z.string(),
  body: EventBody,
});
export type StoredEvent = z.infer<typeof StoredEvent>;

/** The run id an event belongs to, if any (indexed in the table for per-run queries). */
export function runIdOf(body: EventBody): string | null {
  return "runId" in body ? body.runId : null;
}
