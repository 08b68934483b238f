import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDbOn, seedSession } from "@/testing/db/test-db";
import { testDatabaseName, testPostgresUrl } from "@/testing/harness/database-choice";
import { EventStore } from "./store";

/**
 * Several server processes appending to the same session at once (two app instances on one database,
 * or a run and a person's answer on different instances): every append is numbered exactly once, with
 * no gap, and its projection is written with it. Runs on SQLite and on PostgreSQL.
 */
const CHILD = path.resolve("testing/events/append-race-child.ts");
const SERVER_ONLY_LOADER = path.resolve("testing/server-only/loader.mjs");
const WRITERS = 4;
const PER_WRITER = 60;

let db: PrismaClient;
let url: string;
let cleanup: () => Promise<void>;
let sessionId: string;

beforeEach(async () => {
  ({ db, url, cleanup } = await createTestDbOn(testPostgresUrl()));
  sessionId = (await seedSession(db)).session.id;
});
afterEach(async () => cleanup());

function writer(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--import", SERVER_ONLY_LOADER, CHILD, url, sessionId, name, String(PER_WRITER)],
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
      code === 0 && output.includes("done")
        ? resolve()
        : reject(new Error(`writer ${name} exited with ${code}:\n${output.slice(-2_000)}`)),
    );
  });
}

describe(`appends from ${WRITERS} processes to one session on ${testDatabaseName()}`, () => {
  it("number every event exactly once with no gap, each writer's events in its own order, projections included", async () => {
    const names = Array.from({ length: WRITERS }, (_, i) => `w${i}`);
    await Promise.all(names.map(writer));

    const events = await new EventStore(db).read(sessionId, 0, 10_000);
    const total = WRITERS * PER_WRITER;
    expect(events.map((event) => event.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect((await db.session.findUniqueOrThrow({ where: { id: sessionId } })).lastSeq).toBe(total);

    const ids = events.map((event) => (event.body.type === "message-posted" ? event.body.messageId : ""));
    expect(new Set(ids).size).toBe(total);
    for (const name of names) {
      const own = ids.filter((id) => id.startsWith(`${name}-`));
      expect(own).toEqual(Array.from({ length: PER_WRITER }, (_, i) => `${name}-${i}`));
    }
    // The Message projection, written in the same transaction as each event.
    expect(await db.message.count({ where: { sessionId } })).toBe(total);
  });
});
