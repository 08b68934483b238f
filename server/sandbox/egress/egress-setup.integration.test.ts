import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import type { EventBody } from "@/server/domain/events/schema";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { type EgressSettings, EgressSettings as Settings } from "@/server/domain/vocabulary/egress";
import { rootFiles } from "@/server/projects/git-repository";
import { SessionWorkspace } from "@/server/riva/perform/session-workspace";
import { detectSetupCommand, setupCommandHash } from "@/server/setup/detect";
import {
  environmentPreparer,
  prepareEnvironment,
  SETUP_INTENT,
  type SessionEnvironment,
} from "@/server/setup/prepare-environment";
import { ToolDispatch } from "@/server/tools/dispatch";
import { PREFIX, silent, tempDirs } from "@/testing/sandbox/docker";
import { egressFixture, nodeProject, registries } from "@/testing/sandbox/egress-fixture";
import { removeCacheVolume } from "../dep-cache";
import { buildImage, ProjectImageBuildError } from "../project-image/build-image";
import { buildNetworkFor } from "../project-image/build-network";

/**
 * The setup phase through a real squid (setup command, dependency cache, a gVisor session's runc
 * setup) and project image builds under the setup phase's policy. The sandbox's own egress is in
 * egress.integration.test.ts (the same fixture, testing/sandbox/egress-fixture.ts).
 */
const egress = egressFixture("egress-setup");

describe("setup with cached dependencies", () => {
  const projectId = `${PREFIX}-setup-project`;
  let repoPath: string;
  afterAll(async () =>
    removeCacheVolume(new (await import("dockerode")).default(), egress.instance, projectId),
  );

  /** One session: a new sandbox of the project, prepared as a session's workspace is. */
  async function session(name: string, environment: SessionEnvironment) {
    const sessionId = `${PREFIX}-${name}`;
    const box = await egress.provider.create({
      sessionId,
      repoPath,
      branch: `arbor/${name}`,
      egress: environment.egress,
      cacheProjectId: environment.projectId,
    });
    const dispatch = new ToolDispatch({
      sandbox: async () => box,
      policy: async () => ({ checkpoints: CheckpointPolicy.parse({ commands: "never-ask" }) }),
      timeoutMs: 20_000,
    });
    const events: EventBody[] = [];
    const started = Date.now();
    await prepareEnvironment({
      runId: "run-1",
      sessionId,
      fresh: true,
      environment,
      sandboxes: egress.provider,
      append: async (bodies) => {
        events.push(...bodies);
      },
      runSetup: (command, binding, approver, env) =>
        dispatch.run(
          { tool: "setup.run", input: { command } },
          { activeIntent: SETUP_INTENT, approval: { binding, approver }, env },
        ),
    });
    return { box, dispatch, events, setupMs: Date.now() - started };
  }

  it("detects npm ci, runs it once approved with the setup secrets, and the second session installs from the cache", async () => {
    repoPath = nodeProject();
    const detected = detectSetupCommand(await rootFiles(repoPath));
    expect(detected).toBe("npm ci");
    const command =
      'npm ci --no-audit --no-fund && test "$SETUP_TOKEN" = "s3cret-for-setup" && echo secret-seen';
    const environment = (mode: "registries" | "off"): SessionEnvironment => ({
      projectId,
      egress: Settings.parse({ setup: { mode }, agent: { mode: "off" } }),
      setup: { command, binding: setupCommandHash(command), approvedBy: "Ada" },
      openSecrets: async () => ({ env: { SETUP_TOKEN: "s3cret-for-setup" }, unreadable: [] }),
    });

    const first = await session("setup-1", environment("registries"));
    const ran = first.events.find((event) => event.type === "setup-ran");
    expect(ran).toMatchObject({ status: "ok", exitCode: 0 });
    expect(ran?.type === "setup-ran" && ran.output).toContain("secret-seen");
    // The cache's environment is one npm knows: no "Unknown env config" warning in every npm output.
    expect(ran?.type === "setup-ran" && ran.output).not.toContain("Unknown env config");
    expect(first.events.filter((event) => event.type === "egress-phase-set")).toMatchObject([
      { phase: "setup", applied: "registries" },
      { phase: "agent", applied: "off" },
    ]);
    // The agent phase has neither the secret nor a network.
    expect((await first.box.exec("printenv SETUP_TOKEN")).exitCode).not.toBe(0);
    expect((await first.box.exec("node -e \"console.log(require('is-odd')(7))\"")).stdout.trim()).toBe(
      "true",
    );
    // The approval is bound to the text: another command with the same approval does not run.
    const edited = await first.dispatch.run(
      { tool: "setup.run", input: { command: `${command} && touch /workspace/edited` } },
      {
        activeIntent: SETUP_INTENT,
        approval: { binding: setupCommandHash(command), approver: "Ada" },
        env: {},
      },
    );
    expect(edited.status).toBe("ask");
    expect((await first.box.exec("test -e /workspace/edited")).exitCode).not.toBe(0);

    // Second session: no network at all in its setup phase, so npm ci can only succeed from the cache.
    const second = await session("setup-2", environment("off"));
    const secondRan = second.events.find((event) => event.type === "setup-ran");
    if (secondRan?.type === "setup-ran" && secondRan.status !== "ok") console.log(secondRan.output);
    expect(secondRan).toMatchObject({ status: "ok", exitCode: 0 });
    console.log(
      `setup (npm ci of is-odd): first session ${first.setupMs} ms (cold cache, through the proxy), second ${second.setupMs} ms (warm cache, no network)`,
    );
    await Promise.all([first.box.dispose(), second.box.dispose()]);
  });

  it("records an unapproved setup command as skipped, and a failing one with its output", async () => {
    const base = {
      projectId,
      egress: Settings.parse({ setup: { mode: "off" }, agent: { mode: "off" } }),
      openSecrets: async () => ({ env: {}, unreadable: [] }),
    };
    const skipped = await session("setup-3", {
      ...base,
      setup: { command: "npm ci", binding: null, approvedBy: null },
    });
    expect(skipped.events.find((event) => event.type === "setup-ran")).toMatchObject({ status: "skipped" });
    expect((await skipped.box.exec("test -d node_modules")).exitCode).not.toBe(0);
    const failing = "echo about to fail && exit 3";
    const failed = await session("setup-4", {
      ...base,
      setup: { command: failing, binding: setupCommandHash(failing), approvedBy: "Ada" },
    });
    expect(failed.events.find((event) => event.type === "setup-ran")).toMatchObject({
      status: "failed",
      exitCode: 3,
      output: expect.stringContaining("about to fail"),
    });
    // The session goes on.
    expect((await failed.box.exec("echo usable")).stdout).toBe("usable\n");
    await Promise.all([skipped.box.dispose(), failed.box.dispose()]);
  });
});

describe("a gVisor session's setup", () => {
  const projectId = `${PREFIX}-gvisor-project`;
  afterAll(async () => removeCacheVolume(new Docker(), egress.instance, projectId));

  it("installs through the proxy in a runc container, records its connections on the session, and hands the gVisor sandbox the result", async () => {
    const repo = nodeProject();
    const sessionId = `${PREFIX}-gvisor-setup`;
    const command = "npm ci --no-audit --no-fund && echo installed";
    const environment: SessionEnvironment = {
      projectId,
      egress: Settings.parse({ setup: { mode: "registries" }, agent: { mode: "off" } }),
      setup: { command, binding: setupCommandHash(command), approvedBy: "Ada" },
      openSecrets: async () => ({ env: {}, unreadable: [] }),
    };
    const events: EventBody[] = [];
    const workspace = new SessionWorkspace(
      {
        sandboxes: egress.provider,
        commandTimeoutMs: 120_000,
        logger: silent,
        environmentOf: async () => environment,
        workspaceOf: async () => ({
          repoPath: repo,
          branch: "arbor/gvisor-setup",
          sandboxChoice: async () => ({ runtime: "runsc" }),
        }),
      },
      sessionId,
      async () => undefined,
      environmentPreparer({
        runId: "run-gvisor",
        sessionId,
        sandboxes: egress.provider,
        append: async (bodies) => {
          events.push(...bodies);
        },
        policy: async () => ({ checkpoints: CheckpointPolicy.parse({ commands: "never-ask" }) }),
        timeoutMs: 120_000,
      }),
    );
    const box = await workspace.box();
    try {
      expect(box.runtime).toBe("runsc");
      expect(events.find((event) => event.type === "setup-ran")).toMatchObject({
        status: "ok",
        runner: "runc-for-gvisor",
      });
      expect(events.filter((event) => event.type === "egress-phase-set")).toMatchObject([
        { phase: "setup", applied: "registries" },
        { phase: "agent", applied: "off" },
      ]);
      // The runc container's connections are this session's.
      expect(await egress.connectionTo(sessionId, "registry.npmjs.org")).toMatchObject({
        phase: "setup",
        allowed: true,
      });
      // The installed packages are in the gVisor sandbox's workspace, and it has no network.
      expect((await box.exec("node -e \"console.log(require('is-odd')(7))\"")).stdout.trim()).toBe("true");
      expect((await box.exec("cat /proc/net/dev | grep -c eth")).stdout.trim()).toBe("0");
      // The setup container is gone, and so is its rule in the proxy.
      expect(await egress.provider.get(`${sessionId}.setup`)).toBeNull();
      expect(readFileSync(path.join(egress.proxyState, "rules.json"), "utf8")).not.toContain(sessionId);
    } finally {
      await box.dispose();
    }
  });
});

describe("a project image build under the setup phase's policy", () => {
  const docker = new Docker();
  const tags: string[] = [];
  afterAll(async () => {
    for (const tag of tags)
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
  });

  /** Builds a one-line Dockerfile on the sandbox image with `settings`; the log, and the error if any. */
  async function build(run: string, settings: EgressSettings) {
    const dir = mkdtempSync(path.join(tmpdir(), "arbor-build-egress-"));
    tempDirs.push(dir);
    writeFileSync(path.join(dir, "Dockerfile"), `ARG ARBOR_BASE\nFROM \${ARBOR_BASE}\nRUN ${run}\n`);
    const context = execFileSync("tar", ["-C", dir, "-c", "."]);
    const tag = `${PREFIX.toLowerCase()}-build-egress:${tags.length}`;
    tags.push(tag);
    const network = await buildNetworkFor(settings, egress.proxy);
    let log = `${network.note}\n`;
    try {
      await buildImage({
        docker,
        context,
        dockerfile: "Dockerfile",
        tag,
        baseImage: egress.provider.image,
        labels: {},
        onLog: (text) => {
          log += text;
        },
        networkMode: network.networkMode,
        buildArgs: network.buildArgs,
      });
      return { log, error: null, networkMode: network.networkMode };
    } catch (error) {
      return { log, error: error as Error, networkMode: network.networkMode };
    } finally {
      network.release();
    }
  }

  it("reaches a listed registry through the proxy, and a host not listed fails the build with the proxy's refusal", async () => {
    const allowed = await build(
      "curl -fsS -m 30 -o /dev/null -w 'registry answered %{http_code}\\n' https://registry.npmjs.org/is-odd",
      registries,
    );
    expect(allowed.networkMode).toBe(egress.proxy.networkName);
    expect(allowed.error).toBeNull();
    expect(allowed.log).toMatch(/registry answered 200/);

    const refused = await build(`curl -fsS -m 10 http://vm:${egress.serverPort}/`, registries);
    expect(refused.error).toBeInstanceOf(ProjectImageBuildError);
    // squid's answer reaches the build log: the host is not on the list.
    expect(refused.log).toMatch(/403/);
    expect(refused.log).not.toMatch(/reached the host/);
    // The build's token is gone with it: its rule no longer lets anything through.
    expect(readFileSync(path.join(egress.proxyState, "rules.json"), "utf8")).not.toMatch(/token:/);
  });

  it("builds with no network at all when the setup phase is Off", async () => {
    const off = await build(
      "curl -fsS -m 10 -o /dev/null https://registry.npmjs.org/is-odd",
      Settings.parse({ setup: { mode: "off" }, agent: { mode: "off" } }),
    );
    expect(off.networkMode).toBe("none");
    expect(off.error).toBeInstanceOf(ProjectImageBuildError);
    expect(off.log).toMatch(/Could not resolve host|resolve/i);
  });
});
