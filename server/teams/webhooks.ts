import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { z } from "zod";
import { errorMessage, UserFacingError } from "@/server/domain/errors";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { SecretBox } from "@/server/settings/secret-box";
import { checkWebhookAddress, postPinned } from "./webhook-address";

/**
 * Issue #21.4: a team's outgoing webhooks. A team admin adds a URL; Arbor makes an HMAC secret, shows
 * it once and keeps it sealed (secret-box.ts, bound to the webhook). Deliveries are rows written with
 * the events that cause them (server/events/webhook-outbox.ts); `deliverDue` sends what is due, signs
 * each body, records every attempt, and retries a failure with exponential backoff — a restart loses
 * nothing, because what is due is read from the table. Where a webhook may point is checked at save
 * and before every attempt (webhook-address.ts: no loopback, private, link-local… addresses).
 */

export const WebhookUrl = z
  .url({ protocol: /^https?$/, error: "Give an http:// or https:// address." })
  .max(2_000, "A webhook address has at most 2,000 characters.");

/** After this many failed attempts a delivery is FAILED and no longer retried. */
export const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 10_000;
const MAX_BACKOFF_MS = 60 * 60_000;
const SEND_TIMEOUT_MS = 10_000;
const BATCH = 20;

/** 10 s, 20 s, 40 s, … capped at an hour: the wait before attempt `attempts + 1`. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * `X-Arbor-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`, with the timestamp sent as
 * `X-Arbor-Timestamp` (Unix seconds): signing both lets a receiver refuse an old body replayed.
 */
export function signatureOf(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

const contextOf = (webhookId: string) => `webhook:${webhookId}`;

/**
 * Adds a webhook; the secret is returned this once and stored only sealed. An address that is, or
 * resolves to, a blocked one is refused here; a name that does not resolve yet is kept (every
 * delivery checks again, and refuses it while it does not resolve).
 */
export async function addWebhook(
  db: PrismaClient,
  box: SecretBox,
  input: { teamId: string; url: string; createdById: string; allowedHosts: readonly string[] },
): Promise<{ id: string; url: string; secret: string }> {
  const verdict = await checkWebhookAddress(input.url, input.allowedHosts);
  if (!verdict.allowed && !verdict.unresolved) throw new UserFacingError(verdict.reason, "BAD_REQUEST");
  const secret = `whsec_${randomBytes(24).toString("base64url")}`;
  const created = await db.teamWebhook.create({
    data: { teamId: input.teamId, url: input.url, secretSealed: "", createdById: input.createdById },
    select: { id: true, url: true },
  });
  await db.teamWebhook.update({
    where: { id: created.id },
    data: { secretSealed: box.seal(secret, contextOf(created.id)) },
  });
  return { ...created, secret };
}

/** Sends every due delivery once (oldest first); returns how many were tried. Never throws for a receiver. */
export async function deliverDue(
  db: PrismaClient,
  box: SecretBox,
  options: { origin: string; allowedHosts: readonly string[]; now?: () => number },
): Promise<number> {
  const now = options.now ?? Date.now;
  const due = await db.webhookDelivery.findMany({
    where: { status: "PENDING", nextAttemptAt: { lte: new Date(now()) } },
    orderBy: { createdAt: "asc" },
    take: BATCH,
    include: { webhook: { select: { id: true, url: true, secretSealed: true } } },
  });
  let tried = 0;
  for (const delivery of due) {
    // A lease: another server (or an overlapping round) that read the same row finds it taken.
    const lease = await db.webhookDelivery.updateMany({
      where: {
        id: delivery.id,
        status: "PENDING",
        attempts: delivery.attempts,
        nextAttemptAt: delivery.nextAttemptAt,
      },
      data: { nextAttemptAt: new Date(now() + 3 * SEND_TIMEOUT_MS) },
    });
    if (lease.count === 0) continue;
    tried++;
    const stored = JSON.parse(delivery.payload) as { path?: string };
    const body = JSON.stringify({
      ...stored,
      url: `${options.origin.replace(/\/$/, "")}${stored.path ?? ""}`,
    });
    const timestamp = String(Math.floor(now() / 1000));
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      const verdict = await checkWebhookAddress(delivery.webhook.url, options.allowedHosts);
      if (!verdict.allowed) error = `refused: ${verdict.reason}`.slice(0, 500);
      else {
        const secret = box.open(delivery.webhook.secretSealed, contextOf(delivery.webhook.id));
        httpStatus = await postPinned({
          url: delivery.webhook.url,
          pinned: verdict.pinned,
          headers: {
            "content-type": "application/json",
            "user-agent": "Arbor-Webhooks/1",
            "x-arbor-event": delivery.event,
            "x-arbor-delivery": delivery.id,
            "x-arbor-timestamp": timestamp,
            "x-arbor-signature": signatureOf(secret, timestamp, body),
          },
          body,
          timeoutMs: SEND_TIMEOUT_MS,
        });
        if (httpStatus < 200 || httpStatus >= 300) error = `the receiver answered HTTP ${httpStatus}`;
      }
    } catch (caught) {
      error = errorMessage(caught).slice(0, 500);
    }
    const attempts = delivery.attempts + 1;
    const status = error === null ? "DELIVERED" : attempts >= MAX_ATTEMPTS ? "FAILED" : "PENDING";
    await db.$transaction([
      db.webhookAttempt.create({
        data: { deliveryId: delivery.id, at: new Date(now()), httpStatus, error },
      }),
      db.webhookDelivery.update({
        where: { id: delivery.id },
        data: { attempts, status, nextAttemptAt: new Date(now() + backoffMs(attempts)) },
      }),
    ]);
  }
  return tried;
}

/** Runs `deliverDue` every few seconds until stopped; a failing round is logged, the next one runs. */
export function startWebhookWorker(
  tick: () => Promise<unknown>,
  onError: (error: unknown) => void,
  everyMs = 5_000,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

const LOG_SIZE = 30;

/** A team's webhooks (never their secrets) with their latest deliveries and every attempt of each. */
export async function webhooksOf(db: PrismaClient, teamId: string) {
  return db.teamWebhook.findMany({
    where: { teamId },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      url: true,
      createdAt: true,
      deliveries: {
        orderBy: { createdAt: "desc" },
        take: LOG_SIZE,
        select: {
          id: true,
          event: true,
          status: true,
          attempts: true,
          nextAttemptAt: true,
          createdAt: true,
          log: { orderBy: { at: "asc" }, select: { id: true, at: true, httpStatus: true, error: true } },
        },
      },
    },
  });
}

/** Removes one of the team's webhooks (and its pending deliveries); another team's id is not found. */
export async function removeWebhook(db: PrismaClient, teamId: string, webhookId: string): Promise<void> {
  const { count } = await db.teamWebhook.deleteMany({ where: { id: webhookId, teamId } });
  if (count === 0) throw new UserFacingError("That webhook does not exist.", "NOT_FOUND");
}
