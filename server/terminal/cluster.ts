import type { Logger } from "pino";
import { errorMessage, UserFacingError } from "@/server/domain/errors";
import type { TerminalSize } from "@/server/sandbox/types";
import type { TerminalActor, TerminalHub, TrackedFrame } from "./hub";
import type { TerminalPeerClient } from "./peer";

/** What the terminal procedures use: one process's hub, or the cluster's routing in front of it. */
export type Terminals = Pick<TerminalHub, "open" | "write" | "resize" | "close" | "closeAll" | "follow">;

/** Who holds which session's terminal (server/postgres/terminal-owners.ts). */
export interface TerminalOwnership {
  readonly self: { instance: string; address: string };
  ownerOf(sessionId: string): Promise<{ instance: string; address: string } | null>;
  claim(sessionId: string): Promise<boolean>;
  release(sessionId: string): Promise<void>;
}

/**
 * The session terminal when several instances serve one database behind a balancer that cannot know
 * which instance holds a session's shell. Route by session, relayed: the instance that opens the
 * terminal holds it (its TTY lives on that process's Docker connection); any other instance a
 * watcher reaches forwards typing, resizing and closing to the holder and streams the holder's frames
 * through (server/terminal/peer.ts). Frame ids carry the terminal's id and offset, so a watcher that
 * moves between instances resumes exactly where it was. Each relaying watcher looks the holder up
 * again every `pollMs`, which is how it follows a terminal opened, closed or lost elsewhere.
 */
export class ClusterTerminals implements Terminals {
  private readonly pollMs: number;

  constructor(
    readonly local: TerminalHub,
    private readonly owners: TerminalOwnership,
    private readonly peers: TerminalPeerClient,
    private readonly log: Logger,
    options: { pollMs?: number } = {},
  ) {
    this.pollMs = options.pollMs ?? 1_000;
  }

  /** The other live instance holding the session's terminal, or null (none, or this one). */
  private async remoteHolder(sessionId: string): Promise<{ instance: string; address: string } | null> {
    const owner = await this.owners.ownerOf(sessionId);
    return owner && owner.instance !== this.owners.self.instance ? owner : null;
  }

  async open(sessionId: string, size: TerminalSize, by: TerminalActor) {
    if (this.local.current(sessionId)) return this.local.open(sessionId, size, by);
    const holder = await this.remoteHolder(sessionId);
    if (holder) return this.peers.open(holder.address, sessionId, size, by);
    if (await this.owners.claim(sessionId)) {
      try {
        return await this.local.open(sessionId, size, by);
      } catch (error) {
        await this.owners.release(sessionId).catch(() => undefined);
        throw error;
      }
    }
    // Another instance claimed it between the look-up and the claim: join that one.
    const winner = await this.remoteHolder(sessionId);
    if (winner) return this.peers.open(winner.address, sessionId, size, by);
    throw new UserFacingError("The terminal is being opened elsewhere: try again.", "CONFLICT");
  }

  async write(sessionId: string, data: string, by: TerminalActor): Promise<void> {
    if (this.local.current(sessionId)) return this.local.write(sessionId, data, by);
    const holder = await this.remoteHolder(sessionId);
    if (holder) return this.peers.write(holder.address, sessionId, data, by);
    return this.local.write(sessionId, data, by);
  }

  async resize(sessionId: string, size: TerminalSize): Promise<void> {
    if (this.local.current(sessionId)) return this.local.resize(sessionId, size);
    const holder = await this.remoteHolder(sessionId);
    if (holder) return this.peers.resize(holder.address, sessionId, size);
    return this.local.resize(sessionId, size);
  }

  async close(sessionId: string, by: TerminalActor | null): Promise<boolean> {
    if (this.local.current(sessionId) || by === null) return this.local.close(sessionId, by);
    const holder = await this.remoteHolder(sessionId);
    if (holder) return this.peers.close(holder.address, sessionId, by);
    return this.local.close(sessionId, by);
  }

  closeAll(): Promise<void> {
    return this.local.closeAll();
  }

  /** The terminal's frames, from this process's hub or relayed from the holder, switching as it moves. */
  async *follow(sessionId: string, lastId: string | null, signal: AbortSignal): AsyncGenerator<TrackedFrame> {
    let last = lastId;
    while (!signal.aborted) {
      const holder = await this.remoteHolder(sessionId).catch(() => undefined);
      if (holder === undefined) {
        await sleep(this.pollMs, signal); // the database is unreachable: look again shortly
        continue;
      }
      const moved = new AbortController();
      const abort = () => moved.abort();
      signal.addEventListener("abort", abort, { once: true });
      const watch = setInterval(() => {
        this.remoteHolder(sessionId).then(
          (now) => {
            if ((now?.instance ?? null) !== (holder?.instance ?? null)) moved.abort();
          },
          () => undefined,
        );
      }, this.pollMs);
      try {
        const frames = holder
          ? this.peers.follow(holder.address, sessionId, last, moved.signal)
          : this.local.follow(sessionId, last, moved.signal);
        for await (const tracked of frames) {
          if (moved.signal.aborted) break;
          last = tracked.id;
          yield tracked;
        }
      } catch (error) {
        // The holder went away mid-stream (it died, or closed the stream): look it up again.
        this.log.debug({ sessionId, err: errorMessage(error) }, "terminal relay interrupted");
      } finally {
        clearInterval(watch);
        signal.removeEventListener("abort", abort);
      }
      if (!moved.signal.aborted) await sleep(this.pollMs, signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
