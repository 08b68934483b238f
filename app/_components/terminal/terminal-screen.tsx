"use client";

import "@xterm/xterm/css/xterm.css";
import "./terminal.css";
import { useMutation } from "@tanstack/react-query";
import type { FitAddon } from "@xterm/addon-fit";
import type { Terminal } from "@xterm/xterm";
import { useCallback, useEffect, useRef, useState } from "react";
import type { TerminalFrame } from "@/server/domain/vocabulary/terminal";
import { describeError, useTRPC, useTRPCClient } from "../../_trpc/client";
import { InputQueue } from "./input-queue";

type Connection = "connecting" | "live" | "reconnecting" | "error";
type State =
  | { kind: "unknown" }
  | { kind: "idle" }
  | { kind: "open"; terminalId: string }
  | { kind: "closed"; reason: Extract<TerminalFrame, { kind: "closed" }>["reason"]; exitCode: number | null };

const CLOSED_TEXT = {
  closed: "The terminal was closed.",
  idle: "The terminal was closed after nobody watched it for a while.",
  exited: "The shell exited.",
  shutdown: "The server stopped; the terminal was closed.",
} as const;

/** Why no shell runs while the session's sandbox is lost: it went with its host, and a restart makes one. */
export function lostSandboxText(host: string): string {
  return `The sandbox was lost with its Docker host ${host}, and its shell with it. Restart the sandbox to open a terminal again.`;
}

/**
 * The session's shared terminal on screen: xterm and the output subscription (the retained screen
 * first, then live); after a dropped connection the link resumes from the last frame it saw, so the
 * screen comes back without gaps. `autoOpen`: open the shell as soon as the stream says none is open.
 */
export function TerminalScreen({
  sessionId,
  canType,
  autoOpen,
  lostHost = null,
  onHide,
}: {
  sessionId: string;
  canType: boolean;
  autoOpen: boolean;
  /** Set while the session's sandbox is lost: the closed terminal says so instead of "the shell exited". */
  lostHost?: string | null;
  onHide: () => void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const hostRef = useRef<HTMLDivElement>(null);
  const termRef = useRef<{ term: Terminal; fit: FitAddon } | null>(null);
  const stateRef = useRef<State>({ kind: "unknown" });
  const [state, setState] = useState<State>({ kind: "unknown" });
  const [connection, setConnection] = useState<Connection>("connecting");
  const [error, setError] = useState<string | null>(null);
  const open = useMutation(trpc.terminal.open.mutationOptions());
  const close = useMutation(trpc.terminal.close.mutationOptions());

  const update = useCallback((next: State) => {
    stateRef.current = next;
    setState(next);
  }, []);
  const autoOpenRef = useRef(autoOpen && canType);
  const openRef = useRef<() => void>(() => undefined);

  // The xterm instance, its input and its size. Loaded on the client only: xterm needs the DOM.
  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | null = null;
    let resizeTimer: ReturnType<typeof setTimeout> | undefined;
    const input = new InputQueue(
      (data) => client.terminal.write.mutate({ sessionId, data }),
      (caught) => setError(describeError(caught)),
    );
    void (async () => {
      const [{ Terminal }, { FitAddon }] = await Promise.all([
        import("@xterm/xterm"),
        import("@xterm/addon-fit"),
      ]);
      const host = hostRef.current;
      if (disposed || !host) return;
      const term = new Terminal({
        cursorBlink: true,
        fontSize: 13,
        fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, monospace',
        scrollback: 5_000,
        disableStdin: !canType,
        theme: { background: "#111314", foreground: "#e6e8ea" },
      });
      const fit = new FitAddon();
      term.loadAddon(fit);
      term.open(host);
      fit.fit();
      termRef.current = { term, fit };
      term.onData((data) => {
        if (canType && stateRef.current.kind === "open") input.push(data);
      });
      // One size for everyone: the shell takes the size of the last window that changed.
      term.onResize((size) => {
        clearTimeout(resizeTimer);
        resizeTimer = setTimeout(() => {
          if (canType && stateRef.current.kind === "open")
            client.terminal.resize.mutate({ sessionId, size }).catch(() => undefined);
        }, 150);
      });
      observer = new ResizeObserver(() => fit.fit());
      observer.observe(host);
    })();
    return () => {
      disposed = true;
      clearTimeout(resizeTimer);
      observer?.disconnect();
      termRef.current?.term.dispose();
      termRef.current = null;
    };
  }, [client, sessionId, canType]);

  // The output stream; frames that arrive before xterm has loaded wait in `early`.
  useEffect(() => {
    const early: TerminalFrame[] = [];
    let flushTimer: ReturnType<typeof setInterval> | undefined;
    const apply = (frame: TerminalFrame) => {
      const term = termRef.current?.term;
      if (!term) {
        early.push(frame);
        flushTimer ??= setInterval(() => {
          if (!termRef.current) return;
          clearInterval(flushTimer);
          for (const waiting of early.splice(0)) apply(waiting);
        }, 50);
        return;
      }
      if (frame.kind === "idle") {
        update({ kind: "idle" });
        if (autoOpenRef.current) {
          autoOpenRef.current = false;
          openRef.current();
        }
      }
      if (frame.kind === "reset") {
        term.reset();
        term.write(frame.data);
        update({ kind: "open", terminalId: frame.terminalId });
      }
      if (frame.kind === "output") {
        term.write(frame.data);
        if (stateRef.current.kind !== "open") update({ kind: "open", terminalId: frame.terminalId });
      }
      if (frame.kind === "closed") update({ kind: "closed", reason: frame.reason, exitCode: frame.exitCode });
    };
    const subscription = client.terminal.output.subscribe(
      { sessionId, lastEventId: null },
      {
        onStarted: () => setConnection("live"),
        onConnectionStateChange: (change) => {
          if (change.state === "connecting" && change.error) setConnection("reconnecting");
          if (change.state === "pending") setConnection("live");
        },
        onData: (tracked) => apply(tracked.data),
        onError: (caught) => {
          setConnection("error");
          setError(describeError(caught));
        },
      },
    );
    return () => {
      subscription.unsubscribe();
      clearInterval(flushTimer);
    };
  }, [client, sessionId, update]);

  const openTerminal = () => {
    autoOpenRef.current = false;
    setError(null);
    const term = termRef.current?.term;
    open.mutate(
      { sessionId, size: { cols: term?.cols ?? 80, rows: term?.rows ?? 24 } },
      { onSuccess: () => termRef.current?.term.focus() },
    );
  };

  openRef.current = openTerminal;
  const showOpen = canType && state.kind !== "open" && state.kind !== "unknown";
  const failure =
    error ??
    (open.error ? describeError(open.error) : null) ??
    (close.error ? describeError(close.error) : null);

  return (
    <div data-testid="terminal-view" data-state={state.kind}>
      <div className="terminal-bar">
        <h2>Terminal</h2>
        <span
          className={`connection ${connection}`}
          data-testid="terminal-connection"
          data-state={connection}
        >
          {connection === "reconnecting" ? "reconnecting…" : connection}
        </span>
        {state.kind === "idle" && (
          <span className="muted small">
            {canType
              ? "A shell in this session's sandbox, shared with everyone watching."
              : "No terminal is open."}
          </span>
        )}
        {lostHost !== null ? (
          // Whatever the stream last said (closed, or still open when the host vanished mid-stream).
          <span className="muted small" data-testid="terminal-lost">
            {lostSandboxText(lostHost)}
          </span>
        ) : (
          state.kind === "closed" && (
            <span className="muted small" data-testid="terminal-closed">
              {CLOSED_TEXT[state.reason]}
              {state.reason === "exited" && state.exitCode !== null && ` (exit code ${state.exitCode})`}
            </span>
          )
        )}
        {!canType && <span className="pill">watching</span>}
        {showOpen && (
          <button
            type="button"
            className="primary"
            onClick={openTerminal}
            disabled={open.isPending}
            data-testid="terminal-open"
          >
            {open.isPending ? "Opening…" : state.kind === "closed" ? "Open again" : "Open terminal"}
          </button>
        )}
        <button type="button" className="secondary" onClick={onHide} data-testid="terminal-hide">
          Hide terminal
        </button>
        {canType && state.kind === "open" && (
          <button
            type="button"
            className="secondary"
            onClick={() => close.mutate({ sessionId })}
            disabled={close.isPending}
            data-testid="terminal-close"
          >
            {close.isPending ? "Closing…" : "Close terminal"}
          </button>
        )}
      </div>
      {failure && (
        <p role="alert" className="error" data-testid="terminal-error">
          {failure}
        </p>
      )}
      <div
        ref={hostRef}
        className={`terminal-host${state.kind === "open" ? "" : " inactive"}`}
        data-testid="terminal-screen"
      />
    </div>
  );
}
