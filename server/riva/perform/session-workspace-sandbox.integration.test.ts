import { afterAll, beforeAll, expect, it } from "vitest";
import type { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import { cleanUp, dockerInspect, makeBareRepo, PREFIX, silent, testProvider } from "@/testing/sandbox/docker";
import { type SandboxReady, SessionWorkspace } from "./session-workspace";

/** A session's first sandbox gets the project's image and runtime, and says which (real Docker). */
let provider: DockerSandboxProvider;

beforeAll(() => {
  provider = testProvider("session-workspace");
}, 600_000);

afterAll(async () => cleanUp(provider));

it("creates the session's sandbox with the project's runtime and reports it when ready", async () => {
  const repoPath = makeBareRepo(true);
  const sessionId = `${PREFIX}-gvisor-session`;
  let choices = 0;
  const ready: SandboxReady[] = [];
  const workspace = new SessionWorkspace(
    {
      sandboxes: provider,
      commandTimeoutMs: 30_000,
      logger: silent,
      workspaceOf: async () => ({
        repoPath,
        branch: "arbor/session-gvisor",
        sandboxChoice: async () => {
          choices++;
          return { runtime: "runsc" };
        },
      }),
    },
    sessionId,
    async (entry) => {
      ready.push(entry);
    },
  );
  const box = await workspace.box();
  try {
    expect(ready).toEqual([
      expect.objectContaining({ reused: false, runtime: "runsc", image: provider.image }),
    ]);
    expect(dockerInspect(box.containerName).HostConfig.Runtime).toBe("runsc");
    expect((await box.exec("uname -r")).stdout).toBe("4.4.0\n");
    // Re-attached (a restart): the choice is not asked again, and the runtime is read from the engine.
    const again = new SessionWorkspace(
      {
        sandboxes: provider,
        commandTimeoutMs: 30_000,
        logger: silent,
        workspaceOf: async () => ({
          repoPath,
          branch: "arbor/session-gvisor",
          sandboxChoice: async () => {
            choices++;
            return {};
          },
        }),
      },
      sessionId,
      async (entry) => {
        ready.push(entry);
      },
    );
    await again.box();
    expect(choices).toBe(1);
    expect(ready[1]).toMatchObject({ reused: true, runtime: "runsc" });
  } finally {
    await box.dispose();
  }
});
