import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { removeCacheVolume } from "@/server/sandbox/dep-cache";
import { DEFAULT_EGRESS } from "@/server/sandbox/egress/policy";
import { setupCommandHash } from "@/server/setup/detect";
import type { SessionEnvironment } from "@/server/setup/prepare-environment";
import { orchestratorWorld } from "@/server/testing/orchestrator-world";

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
