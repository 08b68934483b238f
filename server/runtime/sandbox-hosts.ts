import "server-only";
import type { Logger } from "pino";
import { UserFacingError } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import type { SessionView } from "@/server/domain/session/view";
import { eventBus } from "@/server/events/bus";
import { type EventLog, StaleLogError } from "@/server/events/log";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { restoreSnapshot, snapshotWorkspace } from "@/server/git/session-snapshots";
import {
  type HostPins,
  type MultiHostSandboxProvider,
  sandboxLostMessage,
} from "@/server/sandbox/hosts/multi-host-provider";
import { sandboxAnswers } from "@/server/sandbox/hosts/sandbox-answers";
import type { CreateSandboxOptions } from "@/server/sandbox/types";
import { foldSessionLog } from "./session-runtime";

/** A session whose log keeps moving while a host's event is recorded (a busy run) is given up after this many folds. */
const HOST_EVENT_ATTEMPTS = 5;

/** The sessions' hosts, kept on the Session row (Session.dockerHost). */
export function sessionHostPins(db: PrismaClient): HostPins {
  return {
    async hostOf(sessionId) {
      const row = await db.session.findUnique({ where: { id: sessionId }, select: { dockerHost: true } });
      return row?.dockerHost ?? null;
    },
    async pin(sessionId, hostId) {
      await db.session.updateMany({ where: { id: sessionId }, data: { dockerHost: hostId } });
    },
  };
}

export interface SandboxHostsDeps {
  db: PrismaClient;
  store: Pick<EventLog, "read" | "append">;
  sandboxes: MultiHostSandboxProvider;
  log: Logger;
}

/**
 * What several Docker hosts add to a session's life: a snapshot of the workspace after each VERIFIED
 * intention (to the project's repository, a hidden ref of the session), a "sandbox lost" event for
 * every session of a host that stops answering, and the restart of a lost sandbox on another host from
 * its last snapshot.
 */
export class SandboxHosts {
  private readonly snapshotting = new Map<string, Promise<void>>();

  constructor(private readonly deps: SandboxHostsDeps) {}

  start(): void {
    this.deps.sandboxes.onHost("lost", (hostId) => void this.markLost(hostId));
    this.deps.sandboxes.onHost("back", (hostId) => void this.reconnect(hostId));
    eventBus.subscribeAll((sessionId, events) => {
      for (const event of events) {
        const body = event.body;
        if (body.type === "intention-status-changed" && body.status === "VERIFIED")
          void this.snapshotAfter(sessionId, body.intentionId);
      }
    });
  }

  /** Snapshots run one after another per session, each after the intention's verification. */
  snapshotAfter(sessionId: string, intentionId: string): Promise<void> {
    const previous = this.snapshotting.get(sessionId) ?? Promise.resolve();
    const next = previous.then(() =>
      this.snapshot(sessionId, intentionId).catch((error: unknown) =>
        this.deps.log.warn({ err: error, sessionId, intentionId }, "could not snapshot the workspace"),
      ),
    );
    this.snapshotting.set(sessionId, next);
    return next;
  }

  /** Resolves when the session's snapshots asked for so far are taken (tests, the restart). */
  async settled(sessionId: string): Promise<void> {
    await this.snapshotting.get(sessionId);
  }

  private async snapshot(sessionId: string, intentionId: string): Promise<void> {
    const sandbox = await this.deps.sandboxes.get(sessionId);
    if (!sandbox) return;
    const session = await this.deps.db.session.findUniqueOrThrow({
      where: { id: sessionId },
      select: { project: { select: { repoPath: true } } },
    });
    const view = await foldSessionLog(this.deps.store, sessionId);
    const title = view.intentions[intentionId]?.what ?? intentionId;
    const { ref, commit } = await snapshotWorkspace(
      sandbox,
      session.project,
      sessionId,
      `Arbor snapshot after the verified intention: ${title}`,
    );
    await this.deps.store.append(sessionId, [
      { type: "workspace-snapshotted", intentionId, title: title.slice(0, 300), ref, commit },
    ]);
  }

  /**
   * Every session placed on the host gets a "sandbox lost" event, once: not again while still lost,
   * and not twice when several instances notice the loss at the same moment.
   */
  async markLost(hostId: string): Promise<void> {
    await this.eachSessionOf(hostId, "mark a sandbox lost", (view) => {
      if (view.sandboxHost?.lost) return null;
      const snapshot = view.sandboxHost?.lastSnapshot ?? null;
      const unsaved = Object.values(view.intentions)
        // Work a verification ended is in a snapshot; the rest since is gone.
        .filter((intention) => intention.status !== "VERIFIED")
        .map((intention) => intention.what.slice(0, 300))
        .slice(0, 50);
      return {
        type: "sandbox-lost",
        host: hostId,
        message: sandboxLostMessage(hostId),
        lastSnapshot: snapshot && { ref: snapshot.ref, title: snapshot.title },
        unsaved,
      };
    });
  }

  /**
   * A host answers again: each of its sessions still lost with it (not restarted elsewhere meanwhile)
   * whose sandbox is there — started again if the engine stopped it — and runs a command gets a
   * "sandbox reconnected" event, once, and goes on with its workspace as it was. A session whose
   * container is gone stays lost (its restart starts from the last snapshot, as before).
   */
  async reconnect(hostId: string): Promise<void> {
    await this.eachSessionOf(hostId, "reconnect a lost sandbox", async (view, sessionId) => {
      if (view.sandboxHost?.lost?.host !== hostId) return null;
      const sandbox = await this.deps.sandboxes.get(sessionId);
      if (!sandbox || !(await sandboxAnswers(sandbox))) return null;
      return { type: "sandbox-reconnected", host: hostId };
    });
  }

  /**
   * For each session placed on the host: the event `decide` makes of its folded log (or none), appended
   * only onto that log — several instances hear of a host at the same moment, and one that finds the
   * log moved on folds it again and decides again (at most HOST_EVENT_ATTEMPTS times).
   */
  private async eachSessionOf(
    hostId: string,
    what: string,
    decide: (view: SessionView, sessionId: string) => EventInput | null | Promise<EventInput | null>,
  ): Promise<void> {
    const sessions = await this.deps.db.session.findMany({
      where: { dockerHost: hostId },
      select: { id: true },
    });
    for (const { id } of sessions) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          const view = await foldSessionLog(this.deps.store, id);
          const body = await decide(view, id);
          if (body) await this.deps.store.append(id, [body], { expectLastSeq: view.lastSeq });
          break;
        } catch (error) {
          if (error instanceof StaleLogError && attempt < HOST_EVENT_ATTEMPTS) continue;
          this.deps.log.error({ err: error, sessionId: id, host: hostId }, `could not ${what}`);
          break;
        }
      }
    }
  }

  /**
   * A lost sandbox, made again on a healthy host: placed afresh, cloned from the project's repository
   * and put back to the last snapshot. Refused while the sandbox is not lost.
   */
  async restartElsewhere(
    sessionId: string,
    by: { name: string },
    create: Omit<CreateSandboxOptions, "sessionId">,
  ): Promise<{ host: string; snapshot: string | null }> {
    const view = await foldSessionLog(this.deps.store, sessionId);
    const lost = view.sandboxHost?.lost;
    if (!lost)
      throw new UserFacingError(
        "This session's sandbox is not lost: there is nothing to restart.",
        "PRECONDITION_FAILED",
      );
    await this.deps.sandboxes.releaseHost(sessionId);
    const sandbox = await this.deps.sandboxes.create({ ...create, sessionId });
    const snapshot = view.sandboxHost?.lastSnapshot?.ref ?? null;
    if (snapshot) await restoreSnapshot(sandbox, snapshot);
    const host = (await this.deps.sandboxes.hostOf(sessionId)) ?? "unknown";
    await this.deps.store.append(sessionId, [
      {
        type: "sandbox-restarted",
        fromHost: lost.host,
        toHost: host,
        by: { name: by.name.slice(0, 200) },
        snapshot,
      },
    ]);
    return { host, snapshot };
  }
}
