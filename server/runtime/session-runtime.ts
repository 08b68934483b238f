import {
  type CheckpointPolicy,
  DEFAULT_CHECKPOINTS,
  STRICTEST_CHECKPOINTS,
} from "@/server/domain/policy/checkpoints";
import { emptySessionView, foldEvents } from "@/server/domain/session/fold";
import type { SessionView } from "@/server/domain/session/view";
import type { EventLog } from "@/server/events/log";
import type { Sandbox } from "@/server/sandbox/types";
import { type DispatchDeps, ToolDispatch } from "@/server/tools/dispatch";

/**
 * The wiring every session-bound service shares, written once: the engine, the answer path, the
 * workspace editor, the setup phase and the test support build their tool dispatch, read the
 * project's checkpoint policy and fold the session's log through these, so a rule about any of them
 * (fail closed, the one door, a fold that catches up) holds everywhere at once.
 */

/**
 * The session's log folded up to its last event: every event after `view.lastSeq` folded into `view`
 * (a fresh view by default), page by page until the log has nothing newer.
 */
export async function foldSessionLog(
  log: Pick<EventLog, "read">,
  sessionId: string,
  view: SessionView = emptySessionView(),
): Promise<SessionView> {
  for (;;) {
    const events = await log.read(sessionId, view.lastSeq);
    if (events.length === 0) return view;
    foldEvents(events, view);
  }
}

/**
 * The project's checkpoint policy for a session, fail closed: a policy that cannot be read asks about
 * everything (the strictest), never less; without a way to read one (tests, the offline server) the
 * defaults apply.
 */
export async function checkpointsOfSession(
  checkpointsOf: ((sessionId: string) => Promise<CheckpointPolicy>) | undefined,
  sessionId: string,
): Promise<CheckpointPolicy> {
  return (await checkpointsOf?.(sessionId).catch(() => STRICTEST_CHECKPOINTS)) ?? DEFAULT_CHECKPOINTS;
}

/** What a session's tool dispatch is built from; the names are the services' own (RivaDeps). */
export interface SessionDispatchSettings
  extends Pick<
    DispatchDeps,
    "policy" | "enforcedIntent" | "workspaceCap" | "ledger" | "logger" | "extraTool"
  > {
  /** The session's sandbox, acquired when the first call needs it (at most once, see ToolDispatch). */
  sandbox(): Promise<Sandbox>;
  commandTimeoutMs: number;
  workspaceMaxBytes?: number | null;
}

/** The one door for a session's tool calls (`server/tools/dispatch.ts`), built the same way everywhere. */
export function sessionDispatch(settings: SessionDispatchSettings): ToolDispatch {
  const { sandbox, policy, enforcedIntent, workspaceCap, ledger, logger, extraTool } = settings;
  return new ToolDispatch({
    sandbox,
    policy,
    timeoutMs: settings.commandTimeoutMs,
    workspaceMaxBytes: settings.workspaceMaxBytes ?? null,
    ...(enforcedIntent ? { enforcedIntent } : {}),
    ...(workspaceCap ? { workspaceCap } : {}),
    ...(ledger ? { ledger } : {}),
    ...(logger ? { logger } : {}),
    ...(extraTool ? { extraTool } : {}),
  });
}
