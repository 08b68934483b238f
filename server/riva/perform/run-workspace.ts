import type { EventBody } from "@/server/domain/events/schema";
import { environmentPreparer } from "@/server/setup/prepare-environment";
import type { DispatchDeps } from "@/server/tools/dispatch";
import type { RivaDeps } from "../ports";
import { SessionWorkspace } from "./session-workspace";

/**
 * A run's view of its session's sandbox, as the engine and the answer path both need it: when the
 * sandbox is first ready the run records it (`sandbox-ready`, `sandbox-described`), and the project's
 * environment (setup phase, network per phase) is applied through the one door.
 */
export function runWorkspace(
  deps: Pick<
    RivaDeps,
    "sandboxes" | "workspaceOf" | "commandTimeoutMs" | "logger" | "environmentOf" | "sandboxImage"
  >,
  ids: { sessionId: string; runId: string },
  append: (events: EventBody[]) => Promise<void>,
  /** The dispatch's policy for setup.run (decided by its own bound approval; it only has to be valid). */
  policy: DispatchDeps["policy"],
): SessionWorkspace {
  const { sessionId, runId } = ids;
  return new SessionWorkspace(
    deps,
    sessionId,
    (ready, described) =>
      append([
        { type: "sandbox-ready", runId, ...ready, image: ready.image ?? deps.sandboxImage },
        { type: "sandbox-described", runId, ...described },
      ]),
    environmentPreparer({
      runId,
      sessionId,
      sandboxes: deps.sandboxes,
      append,
      policy,
      timeoutMs: deps.commandTimeoutMs,
    }),
  );
}
