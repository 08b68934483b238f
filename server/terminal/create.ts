import type { Logger } from "pino";
import { UserFacingError } from "@/server/domain/errors";
import type { EventLog } from "@/server/events/log";
import type { SandboxProvider } from "@/server/sandbox/types";
import { TerminalHub } from "./hub";

/** The process's terminal hub, on the sandbox provider's `openTerminal` and the session event log. */
export function createTerminalHub(deps: {
  sandboxes: SandboxProvider;
  store: EventLog;
  log: Logger;
  onEnded?: (sessionId: string) => void;
}): TerminalHub {
  const { sandboxes, store } = deps;
  return new TerminalHub({
    log: deps.log.child({ module: "terminal" }),
    openTerminal: (sessionId, size) => {
      if (!sandboxes.openTerminal) {
        throw new UserFacingError("This server's sandbox provider has no terminals.", "PRECONDITION_FAILED");
      }
      return sandboxes.openTerminal(sessionId, size);
    },
    record: (sessionId, body) => store.append(sessionId, [body]),
    ...(deps.onEnded ? { onEnded: deps.onEnded } : {}),
  });
}
