import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { setupOutputId } from "@/server/domain/session/fold-environment";
import type { LiveCommandOutput } from "@/server/domain/session/live-output";
import { DEFAULT_EGRESS } from "@/server/domain/vocabulary/egress";
import { commandOutput } from "@/server/events/command-output";
import { EventStore } from "@/server/events/store";
import { removeCacheVolume } from "@/server/sandbox/dep-cache";
import { setupCommandHash } from "@/server/setup/detect";
import type { SessionEnvironment } from "@/server/setup/prepare-environment";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * A session's first run prepares its workspace from the project's environment: the approved setup
 * command runs once (with the setup secrets), then the agent phase's network. Real Orchestrator,
 * SQLite, Docker and the offline model.
 */
const world = orchestratorWorld({ repoName: "Setup" });
// The world's provider is the default instance; the project's cache volume goes with the test.
afterAll(async () => removeCacheVolume(new Docker(), "default", "setup-project"));
const COMMAND = 'echo "installed with $SETUP_TOKEN_SET" > /workspace/.setup-done';

describe("the session's setup", () => {
  it("runs the approved setup command once when the workspace is made, then applies the agent phase", async () => {
    const environment: SessionEnvironment = {
      projectId: "setup-project",
      // Off in both phases: the setup here needs no network (the egress tests cover the proxy).
      egress: { ...DEFAULT_EGRESS, setup: { mode: "off", getHeadOnly: false } },
      setup: { command: COMMAND, binding: setupCommandHash(COMMAND), approvedBy: "Ada" },
      openSecrets: async () => ({ env: { SETUP_TOKEN_SET: "yes-secret-1234" }, unreadable: [] }),
    };
    const orch = world.orchestrator({ environmentOf: async () => environment });
    const first = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `ls -a`",
      mode: "agent",
      actor: world.actor,
    });
    await world.approveUntilEnded(orch, first.runId).catch(async (error) => {
      const { EventStore } = await import("@/server/events/store");
      const events = await new EventStore(world.db).read(world.sessionId);
      console.log(JSON.stringify(events.map((event) => event.body).slice(-6), null, 1).slice(0, 3000));
      throw error;
    });
    const view = await world.view();
    expect(view.environment?.setup).toMatchObject({ command: COMMAND, status: "ok", exitCode: 0 });
    expect(view.environment?.phases.agent).toEqual({ requested: "off", applied: "off", problem: null });
    const box = await world.sandboxes.get(world.sessionId);
    expect((await box?.exec("cat /workspace/.setup-done"))?.stdout).toBe("installed with yes-secret-1234\n");
    expect((await box?.exec("printenv SETUP_TOKEN_SET"))?.exitCode).not.toBe(0);

    // A second run of the same session reuses the workspace: no second setup.
    const second = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `ls`",
      mode: "agent",
      actor: world.actor,
    });
    await world.approveUntilEnded(orch, second.runId);
    const { EventStore } = await import("@/server/events/store");
    const events = await new EventStore(world.db).read(world.sessionId);
    expect(events.filter((event) => event.body.type === "setup-ran")).toHaveLength(1);
    expect(events.filter((event) => event.body.type === "egress-phase-set").length).toBeGreaterThanOrEqual(2);
  });
});

describe("the session's setup, streamed and under gVisor", () => {
  afterAll(async () => {
    await removeCacheVolume(new Docker(), "default", "live-setup-project");
    await removeCacheVolume(new Docker(), "default", "gvisor-setup-project");
  });

  it("streams the setup command's output to the session's readers while it runs", async () => {
    const command = "echo first line; sleep 1.5; echo second line";
    const environment: SessionEnvironment = {
      projectId: "live-setup-project",
      egress: { ...DEFAULT_EGRESS, setup: { mode: "off", getHeadOnly: false } },
      setup: { command, binding: setupCommandHash(command), approvedBy: "Ada" },
      openSecrets: async () => ({ env: {}, unreadable: [] }),
    };
    const heard: (LiveCommandOutput & { at: number })[] = [];
    const stop = commandOutput.subscribe(world.sessionId, (output) => {
      heard.push({ ...output, at: Date.now() });
    });
    try {
      const orch = world.orchestrator({ environmentOf: async () => environment });
      const { runId } = await orch.startRun({
        sessionId: world.sessionId,
        task: "run `ls`",
        mode: "agent",
        actor: world.actor,
      });
      await world.approveUntilEnded(orch, runId);
      const events = await new EventStore(world.db).read(world.sessionId);
      const started = events.find((event) => event.body.type === "setup-started");
      const ran = events.find((event) => event.body.type === "setup-ran");
      expect(started?.body).toMatchObject({ command, runner: "sandbox" });
      expect(ran?.body).toMatchObject({ status: "ok", output: "first line\nsecond line\n" });

      const setupUpdates = heard.filter((output) => output.cycleId === setupOutputId(runId));
      // The first line reached the readers alone, while the command still slept; later the whole
      // output; then `done` once the outcome was stored.
      const early = setupUpdates.find((output) => output.text === "first line\n" && !output.done);
      const late = setupUpdates.find((output) => output.text === "first line\nsecond line\n");
      const done = setupUpdates.at(-1);
      expect(early).toBeDefined();
      expect(late).toBeDefined();
      expect(done?.done).toBe(true);
      expect((late?.at ?? 0) - (early?.at ?? 0)).toBeGreaterThan(1_000);
      expect(setupUpdates.every((output) => output.intentionId === "project-setup")).toBe(true);
      // Only the two setup events are in the log: the chunks are not.
      expect(events.filter((event) => event.body.type.startsWith("setup-"))).toHaveLength(2);
    } finally {
      stop();
    }
  });

  it("runs a gVisor session's setup in a runc container that fills the cache the gVisor sandbox mounts", async () => {
    const command =
      'echo "filled under $(uname -r)" > /cache/probe; mkdir -p node_modules/dep && echo installed > node_modules/dep/index.js; echo filled';
    const environment: SessionEnvironment = {
      projectId: "gvisor-setup-project",
      egress: {
        ...DEFAULT_EGRESS,
        setup: { mode: "off", getHeadOnly: false },
        agent: { mode: "registries", getHeadOnly: false },
      },
      setup: { command, binding: setupCommandHash(command), approvedBy: "Ada" },
      openSecrets: async () => ({ env: {}, unreadable: [] }),
    };
    const session = world.sessionId;
    const orch = world.orchestrator({
      environmentOf: async () => environment,
      workspaceOf: async () => ({
        repoPath: world.repoPath,
        branch: `arbor/session-${session}`,
        sandboxChoice: async () => ({ runtime: "runsc" }),
      }),
    });
    const { runId } = await orch.startRun({
      sessionId: session,
      task: "run `cat /cache/probe`",
      mode: "agent",
      actor: world.actor,
    });
    await world.approveUntilEnded(orch, runId);
    const view = await world.view();
    expect(view.environment?.setup).toMatchObject({
      command,
      status: "ok",
      output: "filled\n",
      runner: "runc-for-gvisor",
    });
    // The agent phase asked for registries; gVisor has no network, and the page says so.
    expect(view.environment?.phases.agent).toMatchObject({ requested: "registries", applied: "off" });
    expect(view.environment?.phases.agent?.problem).toMatch(/gVisor/);

    const box = await world.sandboxes.get(session);
    expect(box?.runtime).toBe("runsc");
    // gVisor's kernel in the session; the cache written under runc's (the host's) kernel.
    expect((await box?.exec("uname -r"))?.stdout).toBe("4.4.0\n");
    const probe = (await box?.exec("cat /cache/probe"))?.stdout ?? "";
    expect(probe).toMatch(/^filled under /);
    expect(probe).not.toBe("filled under 4.4.0\n");
    const cycle = Object.values(view.intentions).flatMap((intention) => intention.cycles)[0];
    expect(cycle?.output).toBe(probe);
    // What the setup installed in its workspace is in the gVisor session's, owned by the sandbox user.
    expect(
      (await box?.exec("cat node_modules/dep/index.js; find node_modules/dep -maxdepth 0 -printf '%U\\n'"))
        ?.stdout,
    ).toBe("installed\n1000\n");
    // The setup container is gone.
    expect(await world.sandboxes.get(`${session}.setup`)).toBeNull();
  });
});
