import { StringDecoder } from "node:string_decoder";
import type { Logger } from "pino";
import { errorMessage, UserFacingError } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import type { TerminalFrame } from "@/server/domain/vocabulary/terminal";
import type { SandboxTerminal, TerminalSize } from "@/server/sandbox/types";
import { SandboxError } from "@/server/sandbox/types";
import { DEFAULT_SCROLLBACK_CHARS, Scrollback } from "./scrollback";

/**
 * One shared terminal per session. Everyone watching the session sees the same shell: its output goes
 * into one bounded scrollback, and each watcher follows that scrollback by offset, so a watcher that
 * arrives late or reconnects first gets the recent screen, then live output, never a byte twice.
 * The output is never written to the event log; opening, typing (who, not what) and closing are.
 */

export interface TerminalActor {
  userId: string;
  name: string;
}

/** A frame and the id a reconnecting watcher sends back to resume after it. */
export interface TrackedFrame {
  id: string;
  frame: TerminalFrame;
}

export interface TerminalHubDeps {
  /** Opens a shell in the session's sandbox: the provider's `openTerminal`. */
  openTerminal: (sessionId: string, size: TerminalSize) => Promise<SandboxTerminal>;
  /** Appends human activity to the session's log. */
  record: (sessionId: string, body: EventInput) => Promise<unknown>;
  log: Logger;
  /** A terminal nobody watches is closed after this long (default 10 minutes). */
  idleCloseMs?: number;
  /** At most one "typed" event per person and terminal in this window (default 60 s). */
  typedEveryMs?: number;
  scrollbackChars?: number;
  clock?: () => number;
  /** Called when a session's terminal has ended (a cluster then gives up holding it). */
  onEnded?: (sessionId: string) => void;
}

type CloseReason = Extract<TerminalFrame, { kind: "closed" }>["reason"];

class SharedTerminal {
  readonly scrollback: Scrollback;
  readonly decoder = new StringDecoder("utf8");
  readonly listeners = new Set<() => void>();
  readonly typedAt = new Map<string, number>();
  watchers = 0;
  idleTimer: NodeJS.Timeout | undefined;
  closing: { reason: CloseReason; by: TerminalActor | null } | null = null;
  ended: { reason: CloseReason; exitCode: number | null } | null = null;

  constructor(
    readonly sessionId: string,
    readonly pty: SandboxTerminal,
    scrollbackChars: number,
  ) {
    this.scrollback = new Scrollback(scrollbackChars);
  }

  get id(): string {
    return this.pty.id;
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}

export class TerminalHub {
  private readonly terminals = new Map<string, SharedTerminal>();
  private readonly opening = new Map<string, Promise<SharedTerminal>>();
  private readonly openWaiters = new Map<string, Set<() => void>>();
  private readonly idleCloseMs: number;
  private readonly typedEveryMs: number;
  private readonly clock: () => number;

  constructor(private readonly deps: TerminalHubDeps) {
    this.idleCloseMs = deps.idleCloseMs ?? 10 * 60_000;
    this.typedEveryMs = deps.typedEveryMs ?? 60_000;
    this.clock = deps.clock ?? Date.now;
  }

  /** The session's terminal id, if one is open. */
  current(sessionId: string): string | null {
    const terminal = this.terminals.get(sessionId);
    return terminal && !terminal.ended ? terminal.id : null;
  }

  /** Opens the session's terminal, or joins the one already open (then `created` is false). */
  async open(
    sessionId: string,
    size: TerminalSize,
    by: TerminalActor,
  ): Promise<{ terminalId: string; created: boolean }> {
    const existing = this.terminals.get(sessionId);
    if (existing && !existing.ended) return { terminalId: existing.id, created: false };
    const pending = this.opening.get(sessionId);
    if (pending) return { terminalId: (await pending).id, created: false };
    const started = this.start(sessionId, size, by).finally(() => this.opening.delete(sessionId));
    this.opening.set(sessionId, started);
    return { terminalId: (await started).id, created: true };
  }

  private async start(sessionId: string, size: TerminalSize, by: TerminalActor): Promise<SharedTerminal> {
    let pty: SandboxTerminal;
    try {
      pty = await this.deps.openTerminal(sessionId, size);
    } catch (error) {
      throw toUserFacing(error);
    }
    const terminal = new SharedTerminal(
      sessionId,
      pty,
      this.deps.scrollbackChars ?? DEFAULT_SCROLLBACK_CHARS,
    );
    this.terminals.set(sessionId, terminal);
    pty.onData((chunk) => {
      terminal.scrollback.append(terminal.decoder.write(chunk));
      terminal.notify();
    });
    pty.onExit((exitCode) => this.ended(terminal, exitCode));
    this.armIdleTimer(terminal);
    await this.record(sessionId, { type: "terminal-opened", terminalId: pty.id, by });
    for (const wake of this.openWaiters.get(sessionId) ?? []) wake();
    this.deps.log.info({ sessionId, terminalId: pty.id, by: by.userId }, "terminal opened");
    return terminal;
  }

  /** Keystrokes from `by`. Logs who typed (at most once a minute each), never what. */
  async write(sessionId: string, data: string, by: TerminalActor): Promise<void> {
    const terminal = this.live(sessionId);
    terminal.pty.write(data);
    const now = this.clock();
    const last = terminal.typedAt.get(by.userId);
    if (last === undefined || now - last >= this.typedEveryMs) {
      terminal.typedAt.set(by.userId, now);
      await this.record(sessionId, { type: "terminal-typed", terminalId: terminal.id, by });
    }
  }

  /** The shell's window size; one size for everyone, the last resize wins. */
  async resize(sessionId: string, size: TerminalSize): Promise<void> {
    const terminal = this.live(sessionId);
    try {
      await terminal.pty.resize(size);
    } catch (error) {
      if (terminal.ended) throw notOpen();
      throw toUserFacing(error);
    }
  }

  /** Closes the session's terminal for everyone watching it. */
  async close(sessionId: string, by: TerminalActor | null, reason: CloseReason = "closed"): Promise<boolean> {
    const terminal = this.terminals.get(sessionId);
    if (!terminal || terminal.ended) return false;
    terminal.closing ??= { reason, by };
    await terminal.pty.close();
    return true;
  }

  /** Closes every terminal (server shutdown, tests). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.terminals.keys()].map((id) => this.close(id, null, "shutdown")));
  }

  /**
   * The session's terminal as frames: after `lastId` (what a reconnecting watcher saw last) only what
   * it missed; otherwise the retained screen first. Follows terminal after terminal until aborted.
   */
  async *follow(sessionId: string, lastId: string | null, signal: AbortSignal): AsyncGenerator<TrackedFrame> {
    let resume = parseFrameId(lastId);
    while (!signal.aborted) {
      const terminal = this.terminals.get(sessionId);
      if (!terminal) {
        if (resume?.kind !== "idle") yield { id: "idle", frame: { kind: "idle" } };
        resume = { kind: "idle" };
        await this.waitForOpen(sessionId, signal);
        continue;
      }
      const from = resume?.kind === "at" && resume.terminalId === terminal.id ? resume.offset : null;
      yield* this.attach(terminal, from, signal);
      // After the closing frame the watcher keeps its screen; the next terminal starts with a reset.
      resume = { kind: "idle" };
      if (this.terminals.get(sessionId) === terminal) await this.waitForOpen(sessionId, signal);
    }
  }

  private async *attach(
    terminal: SharedTerminal,
    from: number | null,
    signal: AbortSignal,
  ): AsyncGenerator<TrackedFrame> {
    let wake: (() => void) | null = null;
    const listener = () => {
      wake?.();
      wake = null;
    };
    terminal.listeners.add(listener);
    signal.addEventListener("abort", listener, { once: true });
    terminal.watchers++;
    clearTimeout(terminal.idleTimer);
    try {
      let offset = from;
      while (!signal.aborted) {
        // Read and advance in one synchronous step: output appended while this watcher waits at a
        // yield is picked up by the next `since`, so nothing is skipped or sent twice.
        const { scrollback } = terminal;
        const missed = offset === null ? null : scrollback.since(offset);
        offset = scrollback.end;
        const id = `${terminal.id}:${offset}`;
        if (missed === null) {
          yield { id, frame: { kind: "reset", terminalId: terminal.id, data: scrollback.snapshot() } };
        } else if (missed !== "") {
          yield { id, frame: { kind: "output", terminalId: terminal.id, data: missed } };
        } else if (terminal.ended) {
          const { reason, exitCode } = terminal.ended;
          yield {
            id: `${terminal.id}:closed`,
            frame: { kind: "closed", terminalId: terminal.id, reason, exitCode },
          };
          return;
        } else {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      }
    } finally {
      terminal.listeners.delete(listener);
      signal.removeEventListener("abort", listener);
      terminal.watchers--;
      this.armIdleTimer(terminal);
    }
  }

  private ended(terminal: SharedTerminal, exitCode: number | null): void {
    const { reason, by } = terminal.closing ?? { reason: "exited" as const, by: null };
    terminal.ended = { reason, exitCode };
    clearTimeout(terminal.idleTimer);
    terminal.scrollback.append(terminal.decoder.end());
    terminal.notify();
    if (this.terminals.get(terminal.sessionId) === terminal) {
      this.terminals.delete(terminal.sessionId);
      this.deps.onEnded?.(terminal.sessionId);
    }
    void this.record(terminal.sessionId, {
      type: "terminal-closed",
      terminalId: terminal.id,
      reason,
      by,
      exitCode,
    });
    this.deps.log.info({ sessionId: terminal.sessionId, terminalId: terminal.id, reason }, "terminal closed");
  }

  private armIdleTimer(terminal: SharedTerminal): void {
    clearTimeout(terminal.idleTimer);
    if (terminal.watchers > 0 || terminal.ended) return;
    terminal.idleTimer = setTimeout(() => {
      void this.close(terminal.sessionId, null, "idle");
    }, this.idleCloseMs);
    terminal.idleTimer.unref();
  }

  private live(sessionId: string): SharedTerminal {
    const terminal = this.terminals.get(sessionId);
    if (!terminal || terminal.ended) throw notOpen();
    return terminal;
  }

  private waitForOpen(sessionId: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiters = this.openWaiters.get(sessionId) ?? new Set();
      this.openWaiters.set(sessionId, waiters);
      const done = () => {
        waiters.delete(done);
        if (waiters.size === 0 && this.openWaiters.get(sessionId) === waiters)
          this.openWaiters.delete(sessionId);
        signal.removeEventListener("abort", done);
        resolve();
      };
      waiters.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  private async record(sessionId: string, body: EventInput): Promise<void> {
    try {
      await this.deps.record(sessionId, body);
    } catch (error) {
      // The terminal keeps working; a lost activity record is logged, not shown to the typist.
      this.deps.log.warn(
        { sessionId, type: body.type, err: errorMessage(error) },
        "terminal event not recorded",
      );
    }
  }
}

type Resume = { kind: "idle" } | { kind: "at"; terminalId: string; offset: number } | null;

/** "idle", "<terminalId>:closed" (both: the watcher has no open terminal) or "<terminalId>:<offset>". */
export function parseFrameId(id: string | null | undefined): Resume {
  if (!id) return null;
  if (id === "idle") return { kind: "idle" };
  const match = /^([A-Za-z0-9]{1,128}):(\d{1,15}|closed)$/.exec(id);
  if (!match?.[1] || !match[2]) return null;
  if (match[2] === "closed") return { kind: "idle" };
  return { kind: "at", terminalId: match[1], offset: Number(match[2]) };
}

function notOpen(): UserFacingError {
  return new UserFacingError("The terminal is not open: open it first.", "PRECONDITION_FAILED");
}

function toUserFacing(error: unknown): Error {
  if (error instanceof UserFacingError) return error;
  // Docker down, no sandbox, image missing: the message says what to do, the terminal cannot start.
  if (error instanceof SandboxError) return new UserFacingError(error.message, "PRECONDITION_FAILED");
  return error instanceof Error ? error : new Error(String(error));
}
