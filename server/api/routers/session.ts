import "server-only";
import { tracked } from "@trpc/server";
import { z } from "zod";
import { followAnswers } from "@/server/answer/answer-stream";
import { RunRequest } from "@/server/api/run-request";
import { createRouter, projectProcedure, sessionProcedure } from "@/server/api/trpc";
import { shownRunFacts } from "@/server/domain/session/shown-status";
import { titleFrom } from "@/server/domain/text/display-name";
import { firstLineSummary } from "@/server/domain/text/fit-text";
import { RunStatus } from "@/server/domain/vocabulary/session";
import { permissionsOf } from "@/server/domain/vocabulary/team-roles";
import { followCommandOutput } from "@/server/events/command-output";
import { followEvents } from "@/server/events/follow";

const MAX_REPLAY_EVENTS = 50_000;

/** A stored status this build does not know reads as not verified (fail closed). */
const StoredRunStatus = RunStatus.catch("FAILED");

function latestRun(
  run:
    | { task: string; mode: string; status: string; reason: string | null; _count: { approvals: number } }
    | undefined,
) {
  if (!run) return null;
  const status = StoredRunStatus.parse(run.status);
  // The table keeps no route: a Chat-mode run is an answer (an Agent-mode question reads as its status).
  const shown = shownRunFacts({ status, answer: run.mode === "chat", waiting: run._count.approvals > 0 });
  return { task: run.task, status, shown, reason: run.reason };
}

export const sessionRouter = createRouter({
  /** The project's sessions, each with its latest run's task and shown status (issue #17.4). */
  list: projectProcedure.query(async ({ ctx }) => {
    const sessions = await ctx.db.session.findMany({
      where: { projectId: ctx.project.id },
      orderBy: { createdAt: "desc" },
      select: {
        id: true,
        title: true,
        createdAt: true,
        runs: {
          orderBy: { startedAt: "desc" },
          take: 1,
          select: {
            task: true,
            mode: true,
            status: true,
            reason: true,
            _count: { select: { approvals: { where: { status: "PENDING" } } } },
          },
        },
      },
    });
    // A lost sandbox (several Docker hosts) shows over the latest run's status until it is restarted.
    const hostEvents = await ctx.db.event.findMany({
      where: {
        sessionId: { in: sessions.map((session) => session.id) },
        type: { in: ["sandbox-lost", "sandbox-restarted", "sandbox-reconnected"] },
      },
      orderBy: { seq: "asc" },
      select: { sessionId: true, type: true },
    });
    const lost = new Set<string>();
    for (const event of hostEvents)
      event.type === "sandbox-lost" ? lost.add(event.sessionId) : lost.delete(event.sessionId);
    return sessions.map(({ runs, ...session }) => {
      const latest = latestRun(runs[0]);
      const sandboxLost = lost.has(session.id);
      return {
        ...session,
        sandboxLost,
        latest: latest && sandboxLost ? { ...latest, shown: "SANDBOX_LOST" as const } : latest,
      };
    });
  }),

  /** Opens a session and starts its first run with the task typed on the project page. */
  create: projectProcedure
    .requires("run")
    .input(RunRequest)
    .mutation(async ({ ctx, input }) => {
      const session = await ctx.db.session.create({
        data: {
          projectId: ctx.project.id,
          createdById: ctx.user.id,
          title: titleFrom(firstLineSummary(input.task, 120).line),
          branch: "pending",
        },
      });
      const branch = `arbor/session-${session.id}`;
      await ctx.db.session.update({ where: { id: session.id }, data: { branch } });
      const { runId } = await ctx.app.orchestrator.startRun({
        sessionId: session.id,
        task: input.task,
        mode: input.mode,
        reasoning: input.reasoning,
        actor: { userId: ctx.user.id, name: ctx.user.name },
        modelOverrides: input.model,
        cliConfig: input.cliConfig,
      });
      return { sessionId: session.id, runId };
    }),

  getById: sessionProcedure.query(({ ctx }) => ({
    id: ctx.session.id,
    title: ctx.session.title,
    branch: ctx.session.branch,
    project: { id: ctx.session.project.id, name: ctx.session.project.name },
    role: ctx.role,
    permissions: permissionsOf(ctx.role),
    model: { id: ctx.app.model.id, label: ctx.app.model.label, offline: ctx.app.model.offline },
  })),

  /**
   * The whole log of a session, for the replay viewer (capped: a replay folds it in the browser), as
   * one JSON string of `StoredEvent[]`. The replay page fetches it bare from
   * `app/api/sessions/[sessionId]/events` (no tRPC envelope around 4 MB of JSON); through tRPC it is
   * a string, which superjson passes through instead of walking 10 000 events.
   */
  eventLog: sessionProcedure.query(
    async ({ ctx }): Promise<string> => ctx.app.store.readAllJson(ctx.session.id, MAX_REPLAY_EVENTS),
  ),

  /**
   * Every event of the session after `lastEventId`, then live. SSE reconnects send the id of the
   * last event they saw (tracked), so a reconnect resumes with no gap and no duplicate.
   */
  events: sessionProcedure
    .input(z.object({ lastEventId: z.string().regex(/^\d+$/).nullish() }))
    .subscription(async function* ({ ctx, input, signal }) {
      const after = input.lastEventId ? Number(input.lastEventId) : 0;
      const abort = signal ?? new AbortController().signal;
      for await (const event of followEvents(ctx.app.store, ctx.session.id, after, abort)) {
        yield tracked(String(event.seq), event);
      }
    }),

  /**
   * Answers being written right now, as they grow (the text so far each time, then `done`). Ephemeral:
   * nothing here is stored; the finished answer arrives in the event log as a `message-posted`.
   */
  answerStream: sessionProcedure.subscription(async function* ({ ctx, signal }) {
    yield* followAnswers(ctx.session.id, signal ?? new AbortController().signal);
  }),

  /**
   * Commands' output while they run (the last lines so far each time, then `done`). Ephemeral: the
   * whole output is stored in the cycle's `cycle-result` when the command ends (command-output.ts).
   */
  commandOutput: sessionProcedure.subscription(async function* ({ ctx, signal }) {
    yield* followCommandOutput(ctx.session.id, signal ?? new AbortController().signal);
  }),
});
