import Docker from "dockerode";
import { afterAll, beforeAll, expect, it } from "vitest";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import { MultiHostSandboxProvider } from "@/server/sandbox/hosts/multi-host-provider";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { silent } from "@/testing/sandbox/docker";
import { SandboxHosts, sessionHostPins } from "./sandbox-hosts";

/**
 * Several instances of a cluster ping every Docker host, so they notice a host's loss at about the
 * same moment: each session of it must still get one "sandbox lost" event, not one per instance.
 * Two instances here are two event stores and two SandboxHosts on one database (the host is never
 * reached: recording a loss reads the sessions' hosts from the database).
 */
let db: PrismaClient;
let cleanup: () => Promise<void>;

function instance(name: string): SandboxHosts {
  const docker = new Docker();
  const sandboxes = new MultiHostSandboxProvider({
    hosts: [
      {
        config: { id: "local", kind: "local", maxSessions: 4 },
        docker,
        provider: new DockerSandboxProvider({ docker, logger: silent, instance: `lost-once-${name}` }),
      },
    ],
    pins: sessionHostPins(db),
    imageSource: docker,
    instance: `lost-once-${name}`,
    // Never started here: nothing is pinged.
    healthIntervalMs: 60_000,
    log: silent,
  });
  return new SandboxHosts({ db, store: new EventStore(db), sandboxes, log: silent });
}

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(async () => cleanup());

it("records a host's loss once per session when two instances notice it at the same moment", async () => {
  const sessions = [];
  for (const suffix of ["a", "b", "c"]) {
    const { session } = await seedSession(db, suffix);
    await db.session.update({ where: { id: session.id }, data: { dockerHost: "tcp-host-2" } });
    sessions.push(session.id);
  }
  const first = instance("first");
  const second = instance("second");
  await Promise.all([
    first.markLost("tcp-host-2"),
    second.markLost("tcp-host-2"),
    first.markLost("tcp-host-2"),
  ]);
  for (const sessionId of sessions) {
    const lost = await db.event.findMany({ where: { sessionId, type: "sandbox-lost" } });
    expect(lost.map((event) => event.seq)).toEqual([1]);
  }
  // Noticed again later (the host still down): nothing more.
  await second.markLost("tcp-host-2");
  expect(await db.event.count({ where: { type: "sandbox-lost" } })).toBe(3);
});
