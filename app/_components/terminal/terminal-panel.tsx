"use client";

import { useEffect, useRef, useState } from "react";
import type { TerminalView } from "@/server/domain/session/view";
import { lostSandboxText, TerminalScreen } from "./terminal-screen";

/**
 * The session page's Terminal card. The screen (xterm and its live stream) is mounted only while
 * shown, so a session page holds one stream, not two, unless a terminal is in use: the card shows
 * itself when the session's log says someone opened one, which is how everyone watching sees it.
 */
export function TerminalPanel({
  sessionId,
  canType,
  openInLog,
  lostHost,
}: {
  sessionId: string;
  canType: boolean;
  /** From the folded event log: the terminal someone opened, or null. */
  openInLog: TerminalView | null;
  /** The Docker host the session's sandbox was lost with, while it is lost (no shell can open). */
  lostHost: string | null;
}) {
  const [shown, setShown] = useState(false);
  const [autoOpen, setAutoOpen] = useState(false);
  const lastOpened = useRef<string | null>(null);

  useEffect(() => {
    if (openInLog && openInLog.id !== lastOpened.current) {
      lastOpened.current = openInLog.id;
      setShown(true);
    }
  }, [openInLog]);

  return (
    <section
      className="card terminal-panel"
      aria-label="Terminal"
      data-testid="terminal-panel"
      data-shown={shown}
    >
      {shown ? (
        <TerminalScreen
          sessionId={sessionId}
          canType={canType && lostHost === null}
          autoOpen={autoOpen}
          lostHost={lostHost}
          onHide={() => {
            setShown(false);
            setAutoOpen(false);
          }}
        />
      ) : (
        <div className="terminal-bar">
          <h2>Terminal</h2>
          <span className="muted small" data-testid="terminal-summary">
            {lostHost !== null
              ? lostSandboxText(lostHost)
              : openInLog
                ? `Open, started by ${openInLog.openedBy}.`
                : canType
                  ? "A shell in this session's sandbox, shared with everyone watching."
                  : "No terminal is open."}
          </span>
          {canType && !openInLog && lostHost === null && (
            <button
              type="button"
              className="primary"
              onClick={() => {
                setAutoOpen(true);
                setShown(true);
              }}
              data-testid="terminal-start"
            >
              Open terminal
            </button>
          )}
          {openInLog && (
            <button
              type="button"
              className="secondary"
              onClick={() => setShown(true)}
              data-testid="terminal-show"
            >
              Show terminal
            </button>
          )}
        </div>
      )}
    </section>
  );
}
