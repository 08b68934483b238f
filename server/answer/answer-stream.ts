import { EventEmitter } from "node:events";
import { followHub } from "@/server/events/follow-hub";

/**
 * The answer as it is being written, for live readers only. Partial answers are ephemeral: they are
 * never stored (the log keeps one `message-posted` with the whole answer when it is done), so the log
 * stays replayable and small. A reader that arrives mid-answer gets the text so far first.
 */
export interface PartialAnswer {
  runId: string;
  /** The whole answer so far (not a delta), so a reader never has to stitch pieces together. */
  text: string;
  done: boolean;
}

/** At most one update per this many milliseconds per run: a token stream is not a UI frame rate. */
const MIN_INTERVAL_MS = 60;

class AnswerStreamHub {
  private readonly emitter = new EventEmitter();
  private readonly current = new Map<string, Map<string, PartialAnswer>>();
  private readonly lastSent = new Map<string, number>();
  private readonly pendingTimers = new Map<string, NodeJS.Timeout>();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** The text so far; sent now, or within MIN_INTERVAL_MS when updates come faster. */
  update(sessionId: string, runId: string, text: string): void {
    this.partialsOf(sessionId).set(runId, { runId, text, done: false });
    if (this.pendingTimers.has(runId)) return;
    const wait = MIN_INTERVAL_MS - (Date.now() - (this.lastSent.get(runId) ?? 0));
    if (wait <= 0) {
      this.send(sessionId, runId);
      return;
    }
    this.pendingTimers.set(
      runId,
      setTimeout(() => {
        this.pendingTimers.delete(runId);
        this.send(sessionId, runId);
      }, wait),
    );
  }

  /** The answer is stored (or abandoned): readers drop the partial, the hub forgets it. */
  finish(sessionId: string, runId: string): void {
    const timer = this.pendingTimers.get(runId);
    if (timer) clearTimeout(timer);
    this.pendingTimers.delete(runId);
    this.lastSent.delete(runId);
    const partials = this.current.get(sessionId);
    partials?.delete(runId);
    if (partials?.size === 0) this.current.delete(sessionId);
    this.emitter.emit(sessionId, { runId, text: "", done: true } satisfies PartialAnswer);
  }

  snapshot(sessionId: string): PartialAnswer[] {
    return [...(this.current.get(sessionId)?.values() ?? [])];
  }

  subscribe(sessionId: string, listener: (partial: PartialAnswer) => void): () => void {
    this.emitter.on(sessionId, listener);
    return () => this.emitter.off(sessionId, listener);
  }

  private send(sessionId: string, runId: string): void {
    const partial = this.current.get(sessionId)?.get(runId);
    if (!partial) return;
    this.lastSent.set(runId, Date.now());
    this.emitter.emit(sessionId, partial);
  }

  private partialsOf(sessionId: string): Map<string, PartialAnswer> {
    const existing = this.current.get(sessionId);
    if (existing) return existing;
    const created = new Map<string, PartialAnswer>();
    this.current.set(sessionId, created);
    return created;
  }
}

const globalForHub = globalThis as unknown as { arborAnswerStream?: AnswerStreamHub };
export const answerStream: AnswerStreamHub = globalForHub.arborAnswerStream ?? new AnswerStreamHub();
globalForHub.arborAnswerStream = answerStream;

/** Partial answers of a session: what is being written now, then every update, until aborted. */
export function followAnswers(sessionId: string, signal: AbortSignal): AsyncGenerator<PartialAnswer> {
  return followHub(answerStream, sessionId, signal);
}
