import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { sequence } from "@/testing/events/events";
import { foldEvents } from "./fold";

const lost = (host: string): EventInput => ({
  type: "sandbox-lost",
  host,
  message: `The sandbox's Docker host ${host} stopped answering`,
  lastSnapshot: null,
  unsaved: ["write a.txt"],
});

describe("the sandbox's host in the folded view", () => {
  it("is lost until the host answers again with the sandbox, which clears the loss", () => {
    const view = foldEvents(sequence([lost("h2"), { type: "sandbox-reconnected", host: "h2" }]));
    expect(view.sandboxHost?.lost).toBeNull();
    expect(view.sandboxHost?.reconnected).toMatchObject({ host: "h2" });
    expect(view.sandboxHost?.restarted).toBeNull();
  });

  it("shows only the last way back: a restart after a reconnection, and the reverse", () => {
    const restarted = foldEvents(
      sequence([
        lost("h2"),
        { type: "sandbox-reconnected", host: "h2" },
        lost("h2"),
        { type: "sandbox-restarted", fromHost: "h2", toHost: "local", by: { name: "Ada" }, snapshot: null },
      ]),
    );
    expect(restarted.sandboxHost).toMatchObject({
      lost: null,
      reconnected: null,
      restarted: { toHost: "local" },
    });
    const reconnected = foldEvents(
      sequence([
        lost("h2"),
        { type: "sandbox-restarted", fromHost: "h2", toHost: "h3", by: { name: "Ada" }, snapshot: null },
        lost("h3"),
        { type: "sandbox-reconnected", host: "h3" },
      ]),
    );
    expect(reconnected.sandboxHost).toMatchObject({
      lost: null,
      restarted: null,
      reconnected: { host: "h3" },
    });
  });
});
