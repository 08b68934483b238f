import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { describe, expect, it } from "vitest";
import { EgressSettings as Settings } from "@/server/domain/vocabulary/egress";
import { EventStore } from "@/server/events/store";
import { egressRecords } from "@/server/runtime/egress-records";
import { prepareEnvironment } from "@/server/setup/prepare-environment";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { PREFIX, silent } from "@/testing/sandbox/docker";
import { egressFixture } from "@/testing/sandbox/egress-fixture";
import { DockerSandboxProvider } from "../docker-provider";
import type { Sandbox } from "../types";
import { type EgressConnection, EgressProxy } from "./egress-proxy";
import { RemoteEgressProxy } from "./remote-egress-proxy";

/**
 * A sandbox's recorded network phase given back through a real squid on a real internal Docker network:
 * after a server restart, and on another instance that takes a run over. The fixture is
 * testing/sandbox/egress-fixture.ts, under a name of this file's own (its own proxy and sandboxes).
 */
const egress = egressFixture("egress-restart");

/** A new run's environment step: each phase applied to the sandbox and recorded, with no setup command. */
async function recordPhasesAsARunDoes(
  store: EventStore,
  sessionId: string,
  projectId: string,
  sandboxes: DockerSandboxProvider,
  settings: Settings,
): Promise<void> {
  await prepareEnvironment({
    runId: "run-1",
    sessionId,
    fresh: false,
    environment: {
      projectId,
      egress: settings,
      setup: null,
      openSecrets: async () => ({ env: {}, unreadable: [] }),
    },
    sandboxes,
    append: async (bodies) => {
      await store.append(sessionId, bodies);
    },
    runSetup: () => Promise.reject(new Error("no setup here")),
  });
}

describe("a server restart", () => {
  it("gives a running sandbox its recorded phase back on its first use in the new process, no wider, without a phase change", async () => {
    const { db, cleanup } = await createTestDb();
    let restarted: EgressProxy | undefined;
    let box: Sandbox | undefined;
    try {
      const { session, project } = await seedSession(db);
      const store = new EventStore(db);
      const custom = Settings.parse({
        setup: { mode: "off" },
        agent: { mode: "custom" },
        allowList: ["registry.npmjs.org:443"],
      });
      const records = () => egressRecords({ db, store, currentEgress: async () => custom });
      const before = new DockerSandboxProvider({
        logger: silent,
        instance: egress.instance,
        egress: egress.proxy,
        egressRecords: records(),
      });
      box = await before.create({ sessionId: session.id, egress: custom });
      await recordPhasesAsARunDoes(store, session.id, project.id, before, custom);
      const registry = "curl -sS -m 20 -o /dev/null -w '%{http_code}' https://registry.npmjs.org/left-pad";
      expect((await box.exec(registry)).stdout).toBe("200");
      // A rule a dead process left in the rules file must not survive into the new process's proxy.
      egress.proxy.setRule("10.99.0.9", { sessionId: "ghost", phase: "agent" }, "open");
      // The server dies (kill -9: its squid runs on with the old rules) and a new process starts its
      // proxy for something else: same state directory and network, none of the old process's memory;
      // the start kills the squid the pid file names.
      restarted = new EgressProxy({
        docker: new Docker(),
        instance: egress.instance,
        stateDir: egress.proxyState,
        port: egress.proxyPort,
        upstream: null,
        log: silent,
      });
      await restarted.start();
      const after = new DockerSandboxProvider({
        logger: silent,
        instance: egress.instance,
        egress: restarted,
        egressRecords: records(),
      });
      const again = await after.get(session.id);
      expect(again?.id).toBe(box.id);
      const started = Date.now();
      expect((await again?.exec(registry))?.stdout).toBe("200");
      console.info(`first command after the restart reached the registry in ${Date.now() - started} ms`);
      const outside = await again?.exec("curl -sS -m 10 -o /dev/null -w '%{http_code}' http://example.com/");
      expect(outside?.stdout).toBe("403");
      const rules = readFileSync(path.join(egress.proxyState, "rules.json"), "utf8");
      expect(rules).toContain(session.id);
      expect(rules).not.toContain("10.99.0.9");
      // Recorded like any phase, marked as given back: the environment panel shows it.
      const phases = (await store.read(session.id)).filter((event) => event.body.type === "egress-phase-set");
      expect(phases.map((event) => event.body)).toMatchObject([
        { phase: "agent", applied: "custom", allowList: ["registry.npmjs.org:443"] },
        { phase: "agent", applied: "custom", problem: null, restored: true },
      ]);
    } finally {
      await box?.dispose();
      await restarted?.close();
      await cleanup();
    }
  });
});

describe("a run taken over by another instance", () => {
  it("gives a sandbox made without a proxy (its instance's was down) the proxy's variables once a phase puts it behind one", async () => {
    const sessionId = `${PREFIX}-egress-made-on-bridge`;
    // No proxy: what an instance whose proxy could not start does with Open in one phase.
    const withoutProxy = new DockerSandboxProvider({ logger: silent, instance: egress.instance });
    const openThenRegistries = Settings.parse({ setup: { mode: "open" }, agent: { mode: "registries" } });
    const box = await withoutProxy.create({ sessionId, egress: openThenRegistries });
    try {
      const inspected = await new Docker().getContainer(box.id).inspect();
      expect(Object.keys(inspected.NetworkSettings.Networks ?? {})).toEqual(["bridge"]);
      const applied = await egress.provider.setEgressPhase(sessionId, "agent", openThenRegistries);
      expect(applied).toMatchObject({ requested: "registries", applied: "registries" });
      const behind = await egress.provider.get(sessionId);
      const fetch = (url: string) =>
        `curl -sS --connect-timeout 2 -m 20 -o /dev/null -w '%{http_code}' ${url}`;
      expect((await behind?.exec(fetch("https://registry.npmjs.org/left-pad")))?.stdout).toBe("200");
      expect((await behind?.exec(fetch("http://example.com/")))?.stdout).toBe("403");
    } finally {
      await box.dispose();
    }
  });

  it("in an Open phase whose new instance's proxy cannot start, blanks the proxy variables: its tools go out the bridge", async () => {
    const sessionId = `${PREFIX}-egress-open-no-proxy`;
    const open = Settings.parse({ setup: { mode: "open" }, agent: { mode: "off" } });
    const broken = new RemoteEgressProxy({
      docker: new Docker(),
      imageSource: new Docker(),
      image: "arbor-egress-missing:none",
      instance: `${egress.instance}-broken`,
      port: egress.proxyPort + 2,
      upstream: null,
      log: silent,
    });
    const takeover = new DockerSandboxProvider({
      logger: silent,
      instance: `${egress.instance}-broken`,
      egress: broken,
    });
    const box = await egress.provider.create({ sessionId, egress: open });
    try {
      expect(await takeover.setEgressPhase(sessionId, "setup", open)).toMatchObject({ applied: "open" });
      const taken = await takeover.get(sessionId);
      expect((await taken?.exec("printenv HTTPS_PROXY"))?.stdout).toBe("\n");
      const registry = "curl -sS -m 20 -o /dev/null -w '%{http_code}' https://registry.npmjs.org/left-pad";
      expect((await taken?.exec(registry))?.stdout).toBe("200");
    } finally {
      await box.dispose();
      await broken.destroy();
    }
  });

  it("moves to the new instance's network and proxy on its first use there: its rules hold, the first instance's squid is out of reach", async () => {
    const { db, cleanup } = await createTestDb();
    const stateDir = mkdtempSync(path.join(tmpdir(), "arbor-egress-state-b-"));
    const seen: EgressConnection[] = [];
    let other: EgressProxy | undefined;
    const boxes: Sandbox[] = [];
    try {
      const { session, project } = await seedSession(db);
      const store = new EventStore(db);
      const agentRegistries = Settings.parse({ setup: { mode: "off" }, agent: { mode: "registries" } });
      const records = () => egressRecords({ db, store, currentEgress: async () => agentRegistries });
      // Instance A makes the sandbox, sets and records its phase (as a run does), then dies.
      const first = new DockerSandboxProvider({
        logger: silent,
        instance: egress.instance,
        egress: egress.proxy,
        egressRecords: records(),
      });
      const box = await first.create({ sessionId: session.id, egress: agentRegistries });
      boxes.push(box);
      await recordPhasesAsARunDoes(store, session.id, project.id, first, agentRegistries);
      // Connecting to a proxy that is out of reach hangs until the timeout: 2 s says enough.
      const fetch = (url: string) =>
        `curl -sS --connect-timeout 2 -m 20 -o /dev/null -w '%{http_code}' ${url}`;
      const registry = fetch("https://registry.npmjs.org/left-pad");
      expect((await box.exec(registry)).stdout).toBe("200");
      // A container A made and set a phase for, whose record A died before appending: its squid
      // keeps the rule, so the takeover must not leave the container there.
      const unrecordedId = `${PREFIX}-egress-takeover-unrecorded`;
      boxes.push(await first.create({ sessionId: unrecordedId, egress: agentRegistries }));
      await first.setEgressPhase(unrecordedId, "agent", agentRegistries);
      // Instance B (its own label, network and squid) takes the runs over; A's squid runs on.
      other = new EgressProxy({
        docker: new Docker(),
        instance: `${egress.instance}-b`,
        stateDir,
        port: egress.proxyPort + 1,
        upstream: null,
        log: silent,
        onConnection: (connection) => seen.push(connection),
      });
      const takeover = new DockerSandboxProvider({
        logger: silent,
        instance: `${egress.instance}-b`,
        egress: other,
        egressRecords: records(),
      });
      const aLog = path.join(egress.proxyState, "access.log");
      const aLogBefore = readFileSync(aLog, "utf8").length;
      const networksOf = async (id: string) =>
        Object.keys((await new Docker().getContainer(id).inspect()).NetworkSettings.Networks ?? {});
      // B's first use gives back the recorded phase through B: off A's network, onto B's.
      const taken = await takeover.get(session.id);
      expect(await networksOf(box.id)).not.toContain(egress.proxy.networkName);
      expect(await networksOf(box.id)).toContain(other.networkName);
      // A's process, were it alive, would use the proxy address baked in at creation: out of reach.
      expect((await box.exec(registry)).stdout).toBe("000");
      // B's commands, terminal and programs get B's proxy, under the phase B gave back.
      expect((await taken?.exec("printenv HTTPS_PROXY"))?.stdout.trim()).toBe(other.url);
      expect((await taken?.exec(registry))?.stdout).toBe("200");
      expect((await taken?.exec(fetch("http://example.com/")))?.stdout).toBe("403");
      await expect
        .poll(() => {
          other?.readLog();
          return seen.filter((c) => c.sessionId === session.id).map((c) => [c.host, c.allowed, c.reason]);
        })
        .toEqual([
          ["registry.npmjs.org", true, null],
          ["example.com", false, "not-listed"],
        ]);
      const phases = (await store.read(session.id)).filter((event) => event.body.type === "egress-phase-set");
      expect(phases.at(-1)?.body).toMatchObject({ phase: "agent", applied: "registries", restored: true });
      // No record: B cannot know the phase, so the container leaves A's network and gets none (Off).
      const unrecorded = await takeover.get(unrecordedId);
      expect(await networksOf(boxes[1]?.id ?? "")).toEqual([]);
      expect((await unrecorded?.exec(registry))?.stdout).toBe("000");
      // Nothing of the taken-over sessions went through A's squid.
      expect(readFileSync(aLog, "utf8").slice(aLogBefore)).toBe("");
      // B narrows the phase: Off leaves no way out, whatever the variables say.
      await takeover.setEgressPhase(session.id, "agent", Settings.parse({}));
      expect((await taken?.exec(registry))?.stdout).toBe("000");
    } finally {
      for (const box of boxes) await box.dispose();
      await other?.destroy();
      rmSync(stateDir, { recursive: true, force: true });
      await cleanup();
    }
  });
});
