import { createHmac, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createSecretBox } from "@/server/settings/secret-box";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { decomposedRun } from "@/testing/events/events";
import { postPinned } from "./webhook-address";
import { addWebhook, deliverDue, MAX_ATTEMPTS } from "./webhooks";

/**
 * Issue #21.4 with real parts: SQLite (deliveries written with the events), a real HTTP receiver on
 * this machine that checks each signature and answers 500 once, then 200; the delivery log keeps both
 * attempts. A "restart" (a new box and a fresh call, nothing in memory) still finds what is due.
 */

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
const received: Received[] = [];
let failuresLeft = 0;
let receiver: Server;
let receiverUrl = "";
/** ARBOR_WEBHOOK_ALLOWED_HOSTS of these tests: the receiver's exact host:port, and the port nobody listens on. */
let allowedHosts: string[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.statusCode = failuresLeft-- > 0 ? 500 : 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as AddressInfo).port;
  receiverUrl = `http://127.0.0.1:${port}/hook`;
  allowedHosts = [`127.0.0.1:${port}`, "127.0.0.1:9"];
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

let db: PrismaClient;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  received.length = 0;
  failuresLeft = 0;
  return () => cleanup();
});

const key = randomBytes(32);
const ORIGIN = "https://arbor.example";

function verified(entry: Received, secret: string): boolean {
  const timestamp = String(entry.headers["x-arbor-timestamp"]);
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${entry.body}`).digest("hex")}`;
  return entry.headers["x-arbor-signature"] === expected;
}

describe("team webhooks", () => {
  it("signs run started / waiting / ended, retries after a 500 with backoff, and logs both attempts", async () => {
    const { team, user, project, session } = await seedSession(db);
    const hook = await addWebhook(db, createSecretBox(key), {
      teamId: team.id,
      url: receiverUrl,
      createdById: user.id,
      allowedHosts,
    });
    expect(hook.secret).toMatch(/^whsec_/);
    const stored = await db.teamWebhook.findUniqueOrThrow({ where: { id: hook.id } });
    expect(stored.secretSealed).not.toContain(hook.secret);

    await new EventStore(db).append(session.id, [
      ...decomposedRun("run-1").slice(0, 7),
      { type: "run-ended", runId: "run-1", status: "FAILED", reason: "stopped by a test" },
    ]);
    const queued = await db.webhookDelivery.findMany({ orderBy: { createdAt: "asc" } });
    expect(queued.map((delivery) => delivery.event).sort()).toEqual([
      "run.ended",
      "run.started",
      "run.waiting",
    ]);

    let clock = Date.now();
    failuresLeft = 1;
    // A new box each round: nothing the first round held in memory is needed by the next.
    expect(
      await deliverDue(db, createSecretBox(key), { origin: ORIGIN, allowedHosts, now: () => clock }),
    ).toBe(3);
    expect(received).toHaveLength(3);
    for (const entry of received) expect(verified(entry, hook.secret)).toBe(true);
    expect(verified({ ...received[0], body: `${received[0]?.body} ` } as Received, hook.secret)).toBe(false);
    const started = received
      .map((entry) => JSON.parse(entry.body))
      .find((body) => body.event === "run.started");
    expect(started).toMatchObject({
      runId: "run-1",
      sessionId: session.id,
      url: `${ORIGIN}/projects/${project.id}/sessions/${session.id}`,
    });

    // The one that got 500 waits for its backoff: not sent again at once.
    expect(
      await deliverDue(db, createSecretBox(key), { origin: ORIGIN, allowedHosts, now: () => clock }),
    ).toBe(0);
    clock += 11_000;
    expect(
      await deliverDue(db, createSecretBox(key), { origin: ORIGIN, allowedHosts, now: () => clock }),
    ).toBe(1);
    expect(received).toHaveLength(4);
    expect(received[3]?.headers["x-arbor-delivery"]).toBe(received[0]?.headers["x-arbor-delivery"]);

    const retried = await db.webhookDelivery.findUniqueOrThrow({
      where: { id: String(received[0]?.headers["x-arbor-delivery"]) },
      include: { log: { orderBy: { at: "asc" } } },
    });
    expect(retried).toMatchObject({ status: "DELIVERED", attempts: 2 });
    expect(retried.log.map((attempt) => [attempt.httpStatus, attempt.error])).toEqual([
      [500, "the receiver answered HTTP 500"],
      [200, null],
    ]);
    expect(await db.webhookDelivery.count({ where: { status: "DELIVERED" } })).toBe(3);
  });

  it("gives up after the last attempt, and a receiver that is down is an attempt like any other", async () => {
    const { team, user, session } = await seedSession(db);
    await addWebhook(db, createSecretBox(key), {
      teamId: team.id,
      url: "http://127.0.0.1:9/down",
      createdById: user.id,
      allowedHosts,
    });
    await new EventStore(db).append(session.id, decomposedRun("run-2").slice(0, 2));
    let clock = Date.now();
    for (let round = 0; round < MAX_ATTEMPTS + 2; round++) {
      await deliverDue(db, createSecretBox(key), { origin: ORIGIN, allowedHosts, now: () => clock });
      clock += 2 * 60 * 60_000;
    }
    const delivery = await db.webhookDelivery.findFirstOrThrow({ include: { log: true } });
    expect(delivery).toMatchObject({ status: "FAILED", attempts: MAX_ATTEMPTS });
    expect(delivery.log).toHaveLength(MAX_ATTEMPTS);
    expect(delivery.log[0]?.httpStatus).toBeNull();
  });

  it("two rounds at once (two servers) send each delivery once", async () => {
    const { team, user, session } = await seedSession(db);
    await addWebhook(db, createSecretBox(key), {
      teamId: team.id,
      url: receiverUrl,
      createdById: user.id,
      allowedHosts,
    });
    await new EventStore(db).append(session.id, decomposedRun("run-4").slice(0, 2));
    const round = () => deliverDue(db, createSecretBox(key), { origin: ORIGIN, allowedHosts });
    const tried = await Promise.all([round(), round()]);
    expect(tried.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(received).toHaveLength(1);
  });

  it("refuses loopback addresses at save and, inserted behind its back, at every delivery (logged)", async () => {
    const { team, user, session } = await seedSession(db);
    const box = createSecretBox(key);
    for (const url of [receiverUrl, "http://localhost:9/x", "http://[::ffff:127.0.0.1]/x"]) {
      await expect(
        addWebhook(db, box, { teamId: team.id, url, createdById: user.id, allowedHosts: [] }),
      ).rejects.toThrow(/loopback address.*ARBOR_WEBHOOK_ALLOWED_HOSTS/s);
    }
    // The allow names one port exactly: the same host on another port is still refused.
    await expect(
      addWebhook(db, box, {
        teamId: team.id,
        url: "http://127.0.0.1:10/x",
        createdById: user.id,
        allowedHosts,
      }),
    ).rejects.toThrow(/loopback/);
    expect(await db.teamWebhook.count()).toBe(0);

    const hook = await addWebhook(db, box, {
      teamId: team.id,
      url: receiverUrl,
      createdById: user.id,
      allowedHosts,
    });
    await new EventStore(db).append(session.id, decomposedRun("run-5").slice(0, 2));
    // The administrator takes the allow away: the next delivery is refused before any connection.
    expect(await deliverDue(db, box, { origin: ORIGIN, allowedHosts: [] })).toBe(1);
    expect(received).toHaveLength(0);
    const delivery = await db.webhookDelivery.findFirstOrThrow({
      where: { webhookId: hook.id },
      include: { log: true },
    });
    expect(delivery.status).toBe("PENDING");
    expect(delivery.log[0]).toMatchObject({ httpStatus: null });
    expect(delivery.log[0]?.error).toMatch(/^refused: 127\.0\.0\.1 is a loopback address/);
  });

  it("connects to the address that was checked, not to whatever the name resolves to later", async () => {
    // `.invalid` never resolves (RFC 6761): only the pinned lookup can reach the receiver.
    const port = new URL(receiverUrl).port;
    const status = await postPinned({
      url: `http://rebinding.invalid:${port}/hook`,
      pinned: { address: "127.0.0.1", family: 4 },
      headers: {},
      body: "{}",
      timeoutMs: 5_000,
    });
    expect(status).toBe(200);
    expect(received[0]?.headers.host).toBe(`rebinding.invalid:${port}`);
  });

  it("a team without webhooks queues nothing", async () => {
    const { session } = await seedSession(db);
    await new EventStore(db).append(session.id, decomposedRun("run-3").slice(0, 2));
    expect(await db.webhookDelivery.count()).toBe(0);
  });
});
