import "server-only";
import { appContext } from "@/server/app-context";
import { secureDataDir } from "@/server/data-dir/private-files";
import { db, dbReady } from "@/server/db";
import { errorMessage } from "@/server/domain/errors";
import { env, isPostgresUrl } from "@/server/env";
import { stampPeerAddresses } from "@/server/http/client-address";
import { logger } from "@/server/logger";
import { checkPromptFiles } from "@/server/model/prompt-catalog";
import { sweepDeletedRepositories } from "@/server/teams/project-deletion";
import { deliverDue, startWebhookWorker } from "@/server/teams/webhooks";

export async function startServer(): Promise<void> {
  // A prompt file that is missing or names an unknown variable stops the server here, not mid-run.
  checkPromptFiles();
  // Rate limits need the TCP peer, which Next.js route handlers never see.
  stampPeerAddresses();
  // Before SQLite opens its WAL: the database and everything under the data directory are private.
  const { fixed } = secureDataDir({ dataDir: env.dataDir, databaseUrl: env.DATABASE_URL });
  if (fixed.length > 0) logger.info({ fixed: fixed.length }, "made data files private (0600/0700)");
  await dbReady();
  const { model, sandboxes, orchestrator } = appContext();
  logger.info(
    { model: model.label, offline: model.offline, database: env.DATABASE_URL.replace(/\/\/.*@/, "//***@") },
    "Arbor starting",
  );
  try {
    const { removed } = await sandboxes.sweepOrphans(async (ids) => {
      const live = await db.session.findMany({ where: { id: { in: ids } }, select: { id: true } });
      return new Set(live.map((session) => session.id));
    });
    if (removed.length > 0) logger.info({ removed }, "removed orphaned sandbox containers");
    // Dependency caches of projects that are gone (their volumes would otherwise stay forever).
    const caches = await sandboxes.sweepCacheVolumes?.(async (ids) => {
      const live = await db.project.findMany({ where: { id: { in: ids } }, select: { id: true } });
      return new Set(live.map((project) => project.id));
    });
    if (caches && caches.removed.length > 0)
      logger.info({ removed: caches.removed }, "removed cache volumes of deleted projects");
  } catch (error) {
    // The app still serves pages without Docker; runs report the engine error where it happens.
    logger.warn({ err: errorMessage(error) }, "orphan sweep skipped: Docker engine not reachable");
  }
  // Repository copies a project delete set aside but could not remove (project-deletion.ts).
  await sweepDeletedRepositories(env.dataDir).catch((error: unknown) =>
    logger.warn({ err: errorMessage(error) }, "could not remove set-aside repository copies"),
  );
  exitPromptlyOnSignals();
  // Outgoing webhooks: what is due is read from the table, so deliveries cut off here go out later.
  startWebhookWorker(
    () =>
      deliverDue(db, appContext().box, {
        origin: env.NEXTAUTH_URL,
        allowedHosts: env.ARBOR_WEBHOOK_ALLOWED_HOSTS,
      }),
    (error) => logger.warn({ err: errorMessage(error) }, "webhook delivery round failed"),
  );
  const resumed = await orchestrator.resumeInterrupted();
  if (resumed > 0) logger.info({ resumed }, "resumed interrupted runs");
  if (isPostgresUrl(env.DATABASE_URL)) adoptOrphanedRuns(() => orchestrator.resumeInterrupted());
}

/**
 * In a cluster, another instance may die at any time: every lease period this instance looks for
 * running runs whose lease ran out and resumes them from their events (each taken by one instance).
 */
function adoptOrphanedRuns(resume: () => Promise<number>): void {
  const timer = setInterval(() => {
    resume().then(
      (adopted) => {
        if (adopted > 0)
          logger.info({ adopted }, "resumed runs of an instance that stopped renewing its leases");
      },
      (error: unknown) => logger.warn({ err: errorMessage(error) }, "could not look for orphaned runs"),
    );
  }, env.ARBOR_RUN_LEASE_MS);
  timer.unref();
}

/** How long the spans and metrics still queued for the OpenTelemetry collector may delay the exit. */
const TELEMETRY_FLUSH_MS = 2_000;

/**
 * Open live streams would keep a graceful HTTP shutdown waiting forever. Nothing else needs flushing:
 * every event is committed when appended, and a run cut off here resumes from its log at the next
 * start. Queued telemetry gets a short, bounded chance to leave (a dead collector never holds the exit).
 */
function exitPromptlyOnSignals(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      logger.info({ signal }, "Arbor stopping; unfinished runs resume at the next start");
      const telemetry = appContext().telemetry;
      if (telemetry === null) process.exit(0);
      const exit = () => process.exit(0);
      setTimeout(exit, TELEMETRY_FLUSH_MS).unref();
      telemetry.shutdown().then(exit, exit);
    });
  }
}
