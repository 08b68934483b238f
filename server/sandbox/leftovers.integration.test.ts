import { afterAll, expect, it } from "vitest";
import { DockerSandboxProvider } from "./docker-provider";

/**
 * A `kill -9` of the server does not stop a `docker exec`: the command goes on in the container. After
 * the restart, a new provider re-attaches to the container and ends it before anything runs again.
 */

const SESSION = `leftovers-${Date.now()}`;
const before = new DockerSandboxProvider();

afterAll(async () => {
  await (await before.get(SESSION))?.dispose();
});

it("ends a command the previous server left running, so its write never lands", async () => {
  const sandbox = await before.create({ sessionId: SESSION });
  // The server "dies" with this command running: nobody waits for it.
  void sandbox.exec("sleep 4 && echo late >> leftover.txt", { timeoutMs: 60_000 }).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const after = new DockerSandboxProvider();
  const again = await after.get(SESSION);
  if (!again?.endLeftovers) throw new Error("no sandbox to re-attach, or it cannot end leftovers");
  const ended = await again.endLeftovers();
  expect(ended.ended).toBeGreaterThan(0);
  expect(ended.ranMs).not.toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 4_500));
  const listing = await again.exec("cat leftover.txt 2>/dev/null; echo end");
  expect(listing.stdout.trim()).toBe("end");
  expect(await again.endLeftovers()).toEqual({ ended: 0, ranMs: null });
});
