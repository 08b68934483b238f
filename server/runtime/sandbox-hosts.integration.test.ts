import { execFileSync } from "node:child_process";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDockerHosts } from "@/server/domain/vocabulary/docker-hosts";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { LABEL_MANAGED } from "@/server/sandbox/container-spec";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import { dockerClientFor } from "@/server/sandbox/hosts/docker-host";
import { MultiHostSandboxProvider } from "@/server/sandbox/hosts/multi-host-provider";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { model } from "@/testing/events/events";
import { cleanUp, git, makeBareRepo, PREFIX, ROOT, silent } from "@/testing/sandbox/docker";
import { currentProjectImagesFrom } from "./image-upkeep";
import { SandboxHosts, sessionHostPins } from "./sandbox-hosts";
import { foldSessionLog } from "./session-runtime";

/**
 * Issue #19.4 with real parts: this machine's engine and a second dockerd in its own network
 * namespace reached over TCP with mutual TLS (deploy/docker-host.sh; its data directory, with the
 * sandbox image copied in once by save|load, is kept between runs), SQLite, real git. Sessions are
 * placed across both; the second host's session runs commands and is snapshotted after a VERIFIED
 * intention; the second dockerd is stopped: its session is marked lost, a new session lands on the
 * first host, and the restart resumes from the snapshot there, without the work done after it; the
 * second dockerd starts again, and the session still lost with it gets its sandbox back as it was.
 */
const SCRIPT = path.join(ROOT, "deploy/docker-host.sh");
const hostScript = (action: "start" | "stop") =>
  execFileSync("bash", [SCRIPT, action], {
    encoding: "utf8",
    env: { ...process.env, ARBOR_DOCKER_HOST_NAME: "arbor-dh-it", ARBOR_DOCKER_HOST_NET: "232" },
  })
    .trim()
    .split("\n")
    .at(-1) as string;

let db: PrismaClient;
let cleanupDb: () => Promise<void>;
let store: EventStore;
let multi: MultiHostSandboxProvider;
let hosts: SandboxHosts;
let local: DockerSandboxProvider;
let remoteId: string;
let repoPath: string;

async function newSession(suffix: string) {
  const user = await db.user.findFirstOrThrow();
  const project = await db.project.findFirstOrThrow();
  return db.session.create({
    data: { projectId: project.id, createdById: user.id, title: `s${suffix}`, branch: `arbor/s${suffix}` },
  });
}

describe.skipIf(process.getuid?.() !== 0)("sandboxes on two Docker hosts", () => {
  beforeAll(async () => {
    const entry = hostScript("start");
    const [config] = parseDockerHosts(entry);
    if (!config) throw new Error("no host");
    remoteId = config.id;
    const remoteDocker = dockerClientFor(config);
    // Sandboxes an earlier run left on the test engine (it was stopped under them) go first.
    for (const container of await remoteDocker.listContainers({
      all: true,
      filters: { label: [`${LABEL_MANAGED}=true`] },
    }))
      await remoteDocker.getContainer(container.Id).remove({ force: true });
    ({ db, cleanup: cleanupDb } = await createTestDb());
    const { project } = await seedSession(db);
    repoPath = makeBareRepo(true);
    await db.project.update({ where: { id: project.id }, data: { repoPath } });
    store = new EventStore(db);
    const localDocker = new Docker();
    const instance = `${PREFIX}-hosts`;
    local = new DockerSandboxProvider({ docker: localDocker, logger: silent, instance });
    const remote = new DockerSandboxProvider({ docker: remoteDocker, logger: silent, instance });
    multi = new MultiHostSandboxProvider({
      hosts: [
        { config: { id: "local", kind: "local", maxSessions: 4 }, docker: localDocker, provider: local },
        { config, docker: remoteDocker, provider: remote },
      ],
      pins: sessionHostPins(db),
      imageSource: localDocker,
      instance,
      healthIntervalMs: 300,
      log: silent,
    });
    hosts = new SandboxHosts({ db, store, sandboxes: multi, log: silent });
    hosts.start();
    multi.startHealthChecks();
  }, 240_000);

  afterAll(async () => {
    await multi?.close();
    // The sessions' ids are the database's, not prefixed: every sandbox of this file's instance goes.
    await local?.sweepOrphans(() => new Set());
    await cleanUp(local);
    await cleanupDb?.();
  });

  it("places, snapshots, loses a host, places on the other and restarts from the snapshot", async () => {
    // Equal engines: the first session goes to the first host, the second to the one with fewer.
    const first = await newSession("1");
    const second = await newSession("2");
    await multi.create({ sessionId: first.id, repoPath, branch: first.branch });
    const onSecond = await multi.create({ sessionId: second.id, repoPath, branch: second.branch });
    expect(await multi.hostOf(first.id)).toBe("local");
    expect((await db.session.findUniqueOrThrow({ where: { id: second.id } })).dockerHost).toBe(remoteId);
    // A session placed on the second host by hand, with work nobody snapshotted.
    const fourth = await newSession("4");
    await db.session.update({ where: { id: fourth.id }, data: { dockerHost: remoteId } });
    const onSecondToo = await multi.create({ sessionId: fourth.id, repoPath, branch: fourth.branch });
    expect((await onSecondToo.exec("echo unsaved > work.txt")).exitCode).toBe(0);

    // Work on the second host, then a VERIFIED intention: its snapshot goes to the project's repository.
    const ran = await onSecond.exec("echo kept > done.txt && uname -n && cat README.md");
    expect(ran.exitCode).toBe(0);
    expect(ran.stdout).toContain("Sandbox test project");
    const intention = { runId: "r1", intentionId: "i1" };
    await store.append(second.id, [
      { type: "run-started", runId: "r1", task: "write files", mode: "agent", model },
      {
        type: "intention-created",
        ...intention,
        parentId: null,
        what: "write done.txt",
        acceptance: "it exists",
        depth: 0,
        position: 0,
      },
      { type: "intention-status-changed", ...intention, status: "VERIFIED", reason: null },
    ]);
    await hosts.settled(second.id);
    const ref = `refs/arbor/sessions/${second.id}/snapshots/1`;
    expect(git(["-C", repoPath, "show", `${ref}:done.txt`]).trim()).toBe("kept");
    // Work after the snapshot, which the loss takes with it.
    expect((await onSecond.exec("echo gone > after.txt && touch more.txt")).exitCode).toBe(0);
    await store.append(second.id, [
      {
        type: "intention-created",
        runId: "r1",
        intentionId: "i2",
        parentId: null,
        what: "write after.txt",
        acceptance: "x",
        depth: 0,
        position: 1,
      },
      { type: "intention-status-changed", runId: "r1", intentionId: "i2", status: "ACTIVE", reason: null },
    ]);

    hostScript("stop");
    let view = await foldSessionLog(store, second.id);
    for (let waited = 0; !view.sandboxHost?.lost && waited < 20_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      view = await foldSessionLog(store, second.id);
    }
    expect(view.sandboxHost?.lost).toMatchObject({ host: remoteId, unsaved: ["write after.txt"] });
    expect(view.sandboxHost?.lost?.message).toMatch(/stopped answering/);
    expect(view.sandboxHost?.lastSnapshot?.ref).toBe(ref);
    // The first host's session is not lost; the lost one cannot be used until it is restarted.
    expect((await foldSessionLog(store, first.id)).sandboxHost?.lost ?? null).toBeNull();
    await expect(multi.create({ sessionId: second.id, repoPath, branch: second.branch })).rejects.toThrow(
      /stopped answering/,
    );

    // A new session goes to the healthy host although it already has the first session.
    const third = await newSession("3");
    await multi.create({ sessionId: third.id, repoPath, branch: third.branch });
    expect(await multi.hostOf(third.id)).toBe("local");

    // Restart elsewhere: on the first host, from the snapshot, without what came after it.
    const restarted = await hosts.restartElsewhere(
      second.id,
      { name: "Ada" },
      { repoPath, branch: second.branch },
    );
    expect(restarted).toEqual({ host: "local", snapshot: ref });
    const again = await multi.get(second.id);
    const files = await again?.exec("cat done.txt; ls");
    expect(files?.stdout).toContain("kept");
    expect(files?.stdout).not.toContain("after.txt");
    view = await foldSessionLog(store, second.id);
    expect(view.sandboxHost?.lost).toBeNull();
    expect(view.sandboxHost?.restarted).toMatchObject({
      fromHost: remoteId,
      toHost: "local",
      by: "Ada",
      snapshot: ref,
    });

    // The second host answers again: the session still lost with it gets its sandbox back as it was
    // (the engine stopped the container; it is started again), the one restarted elsewhere stays there.
    expect((await foldSessionLog(store, fourth.id)).sandboxHost?.lost?.host).toBe(remoteId);
    hostScript("start");
    let back = await foldSessionLog(store, fourth.id);
    for (let waited = 0; back.sandboxHost?.lost && waited < 30_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      back = await foldSessionLog(store, fourth.id);
    }
    expect(back.sandboxHost).toMatchObject({ lost: null, reconnected: { host: remoteId } });
    expect((await (await multi.get(fourth.id))?.exec("cat work.txt"))?.stdout.trim()).toBe("unsaved");
    const events = await db.event.findMany({ where: { type: "sandbox-reconnected" } });
    expect(events.map((event) => event.sessionId)).toEqual([fourth.id]);
    expect(await multi.hostOf(second.id)).toBe("local");
  }, 240_000);

  it("tells the image upkeep each known project's current image, and nothing of unknown ones", async () => {
    const project = await db.project.findFirstOrThrow();
    await db.project.update({ where: { id: project.id }, data: { sandboxImage: "arbor-project-x:abc" } });
    const current = await currentProjectImagesFrom(db)([project.id, "no-such-project"]);
    expect([...current]).toEqual([[project.id, "arbor-project-x:abc"]]);
  });
});
