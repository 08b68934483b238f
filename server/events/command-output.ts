import { EventEmitter } from "node:events";
import type { LiveCommandOutput } from "@/server/domain/session/live-output";
import { followHub } from "@/server/events/follow-hub";
import { openedKeys } from "./opened-keys";
import { redactSecrets } from "./redact";

/**
 * A running command's output, for live readers only.
 *
 * Why ephemeral and not events: a test run can print megabytes in thousands of chunks, and every
 * event is a row that each reader (live view, replay, resume, projections) folds forever. The log
 * already stores the command's whole (capped) output once, in its `cycle-result`, when it ends —
 * that is what the replay shows. So chunks go only to the session's live subscribers, like a partial
 * answer (server/answer/answer-stream.ts): throttled (the first chunk after a quiet spell is sent at
 * once, later ones at most every SEND_INTERVAL_MS) and capped to the last lines, which is all the page
 * shows. A reader that arrives mid-command gets the tail so far first. Nothing here is a record: a
 * crash loses only what the page was showing, never what the log says.
 */

/** A terminal's frame rate is not needed: ten updates a second reads as live. */
export const SEND_INTERVAL_MS = 100;
export const MAX_LINES = 200;
const MAX_CHARS = 32_000;

interface Running extends LiveCommandOutput {
  sessionId: string;
  lastSent: number;
  timer: NodeJS.Timeout | null;
}

/** Keeps the last `MAX_LINES` lines (and `MAX_CHARS` characters) of `text`. */
export function tailLines(text: string, maxLines = MAX_LINES, maxChars = MAX_CHARS): string {
  let tail = text.length > maxChars ? text.slice(-maxChars) : text;
  let end = tail.length;
  // A trailing newline ends the last line; it does not start another.
  if (tail.endsWith("\n")) end -= 1;
  let cut = -1;
  for (let i = 0, at = end; i < maxLines; i++) {
    // lastIndexOf reads a negative start as 0: stop at the start instead of finding index 0 again.
    at = at <= 0 ? -1 : tail.lastIndexOf("\n", at - 1);
    if (at < 0) {
      cut = -1;
      break;
    }
    cut = at;
  }
  if (cut >= 0) tail = tail.slice(cut + 1);
  return tail;
}

/** Where a session's updates go beyond this process (the cluster relay), when one is set. */
export type CommandOutputRelay = (sessionId: string, output: LiveCommandOutput) => void;

/** A command running on another instance, as its relayed updates describe it. */
interface Relayed {
  sessionId: string;
  output: LiveCommandOutput;
  receivedAt: number;
}

/** A relayed command silent this long is dropped from snapshots (its instance may have died mid-command). */
const RELAYED_STALE_MS = 30 * 60_000;

class CommandOutputHub {
  private readonly emitter = new EventEmitter();
  private readonly running = new Map<string, Running>();
  private readonly relayed = new Map<string, Relayed>();
  private relay: CommandOutputRelay | null = null;

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** A chunk of the cycle's command output: published now, or within SEND_INTERVAL_MS. */
  append(
    sessionId: string,
    ids: { runId: string; intentionId: string; cycleId: string },
    chunk: string,
    now = Date.now(),
  ): void {
    let entry = this.running.get(ids.cycleId);
    if (!entry) {
      entry = { ...ids, sessionId, text: "", totalChars: 0, done: false, lastSent: 0, timer: null };
      this.running.set(ids.cycleId, entry);
    }
    entry.text = tailLines(entry.text + chunk);
    entry.totalChars += chunk.length;
    if (entry.timer) return;
    const wait = SEND_INTERVAL_MS - (now - entry.lastSent);
    if (wait <= 0) {
      this.send(entry, now);
      return;
    }
    const pending = entry;
    entry.timer = setTimeout(() => {
      pending.timer = null;
      this.send(pending, Date.now());
    }, wait);
  }

  /** The command ended and its result is stored: readers drop the live lines for the stored output. */
  finish(cycleId: string): void {
    const entry = this.running.get(cycleId);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    this.running.delete(cycleId);
    this.publish(entry.sessionId, { ...publicPart(entry), text: "", done: true });
  }

  /** In a cluster: every update sent here also goes to the other instances through `relay`. */
  relayTo(relay: CommandOutputRelay | null): void {
    this.relay = relay;
  }

  /** An update relayed from the instance running the command: to this process's readers only. */
  receive(sessionId: string, output: LiveCommandOutput, now = Date.now()): void {
    if (output.done) this.relayed.delete(output.cycleId);
    else this.relayed.set(output.cycleId, { sessionId, output, receivedAt: now });
    this.emitter.emit(sessionId, output);
  }

  snapshot(sessionId: string, now = Date.now()): LiveCommandOutput[] {
    const here = [...this.running.values()].filter((entry) => entry.sessionId === sessionId).map(publicPart);
    for (const [cycleId, entry] of this.relayed) {
      if (now - entry.receivedAt > RELAYED_STALE_MS) this.relayed.delete(cycleId);
      else if (entry.sessionId === sessionId) here.push(entry.output);
    }
    return here;
  }

  subscribe(sessionId: string, listener: (output: LiveCommandOutput) => void): () => void {
    this.emitter.on(sessionId, listener);
    return () => this.emitter.off(sessionId, listener);
  }

  private send(entry: Running, now: number): void {
    entry.lastSent = now;
    this.publish(entry.sessionId, publicPart(entry));
  }

  private publish(sessionId: string, output: LiveCommandOutput): void {
    this.emitter.emit(sessionId, output);
    this.relay?.(sessionId, output);
  }
}

function publicPart(entry: Running): LiveCommandOutput {
  const { runId, intentionId, cycleId, text, totalChars, done } = entry;
  // Keys opened from settings (the setup secrets in the setup's environment among them) are redacted
  // here as the event store redacts them; the whole tail each time, so a key split across chunks is caught.
  return { runId, intentionId, cycleId, text: redactLive(text, openedKeys()), totalChars, done };
}

/**
 * Redacts whole secrets, and a secret's start at the very end of the text (the rest of it may be in
 * the next chunk): a live reader never sees a secret's first characters either.
 */
export function redactLive(text: string, secrets: readonly string[]): string {
  let result = redactSecrets(text, secrets);
  for (const secret of secrets) {
    if (secret.length < 8) continue;
    for (let length = secret.length - 1; length >= 4; length--) {
      if (result.endsWith(secret.slice(0, length))) {
        result = `${result.slice(0, -length)}[redacted]`;
        break;
      }
    }
  }
  return result;
}

const globalForHub = globalThis as unknown as { arborCommandOutput?: CommandOutputHub };
export const commandOutput: CommandOutputHub = globalForHub.arborCommandOutput ?? new CommandOutputHub();
globalForHub.arborCommandOutput = commandOutput;

/** A session's live command output: what runs now, then every update, until aborted. */
export function followCommandOutput(
  sessionId: string,
  signal: AbortSignal,
): AsyncGenerator<LiveCommandOutput> {
  return followHub(commandOutput, sessionId, signal);
}
