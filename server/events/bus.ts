import { EventEmitter } from "node:events";
import type { StoredEvent } from "@/server/domain/events/schema";

/**
 * In-process fan-out of appended events to live readers. It only signals; a reader that falls
 * behind (or connects late) catches up from the table, so the bus never has to buffer.
 */
class EventBus {
  private readonly emitter = new EventEmitter();
  /** Listeners to every session's appends (kept apart from the per-session ones: ids never collide). */
  private readonly everything = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(sessionId: string, events: readonly StoredEvent[]): void {
    if (events.length === 0) return;
    this.emitter.emit(sessionId, events);
    this.everything.emit("appended", sessionId, events);
  }

  /** Whether anyone here follows the session (a notification from another instance is then worth reading). */
  following(sessionId: string): boolean {
    return this.emitter.listenerCount(sessionId) > 0;
  }

  /** Every append made in this process, whichever the session (e.g. snapshots after a verification). */
  subscribeAll(listener: (sessionId: string, events: readonly StoredEvent[]) => void): () => void {
    this.everything.on("appended", listener);
    return () => this.everything.off("appended", listener);
  }

  subscribe(sessionId: string, listener: (events: readonly StoredEvent[]) => void): () => void {
    this.emitter.on(sessionId, listener);
    return () => this.emitter.off(sessionId, listener);
  }
}

const globalForBus = globalThis as unknown as { arborEventBus?: EventBus };
export const eventBus: EventBus = globalForBus.arborEventBus ?? new EventBus();
globalForBus.arborEventBus = eventBus;
