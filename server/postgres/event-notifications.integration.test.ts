import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoredEvent } from "@/server/domain/events/schema";
import { followEvents } from "@/server/events/follow";
import { listenForEvents } from "@/server/events/pg-notifications";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { seededPostgresDb } from "@/testing/harness/database-choice";

/**
 * Live events across instances: two other processes (instances) append to a session while this one
 * follows it. Nothing here polls: the follower gets the events live only through PostgreSQL's
 * NOTIFY, read from the table, in order, none missing, none twice.
 */
const CHILD = path.resolve("testing/events/append-race-child.ts");
const SERVER_ONLY_LOADER = path.resolve("testing/server-only/loader.mjs");
const PER_WRITER = 60;

let db: PrismaClient;
let url: string;
let cleanup: () => Promise<void>;
let sessionId: string;

beforeEach(async () => {
  ({ db, url, cleanup, sessionId } = await seededPostgresDb());
});
afterEach(async () => cleanup());

function writer(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--import",
        SERVER_ONLY_LOADER,
        CHILD,
        url,
        sessionId,
        name,
        String(PER_WRITER),
        `instance-${name}`,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`writer ${name} exited with ${code}:\n${output.slice(-2_000)}`)),
    );
  });
}

describe("events appended on other instances", () => {
  it("reach a follower here live, through NOTIFY and the table, with no gap and no duplicate", async () => {
    const store = new EventStore(db);
    const listener = listenForEvents(url, "instance-reader", store);
    await listener.ready;
    const total = 2 * PER_WRITER;
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), 30_000);
    const seen: StoredEvent[] = [];
    const following = (async () => {
      for await (const event of followEvents(store, sessionId, 0, controller.signal)) {
        seen.push(event);
        if (event.seq === total) controller.abort();
      }
    })();
    try {
      await Promise.all([writer("w0"), writer("w1")]);
      await following;
    } finally {
      clearTimeout(timeout);
      await listener.close();
    }
    expect(seen.map((event) => event.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });
});
