import { describe, expect, it } from "vitest";
import { emptyEnvironmentView, foldEnvironment } from "./fold-environment";

const down = {
  type: "egress-interrupted",
  phase: "setup",
  state: "down",
  host: "tcp://10.0.0.2:2376",
  message: "The egress proxy on this Docker host stopped",
} as const;

describe("an egress interruption in the environment view", () => {
  it("shows the phase Off with the message while down, and what it had once back", () => {
    const view = emptyEnvironmentView();
    foldEnvironment(view, {
      type: "egress-phase-set",
      runId: "r1",
      phase: "setup",
      requested: "registries",
      applied: "registries",
      problem: null,
    });
    foldEnvironment(view, down);
    // A second "down" (another address of the session) keeps what the phase had before the first.
    foldEnvironment(view, down);
    expect(view.phases.setup).toMatchObject({
      requested: "registries",
      applied: "off",
      problem: down.message,
    });
    foldEnvironment(view, { ...down, state: "back", message: "back" });
    expect(view.phases.setup).toEqual({ requested: "registries", applied: "registries", problem: null });
  });

  it("ignores a phase it never saw, and a 'back' with nothing interrupted", () => {
    const view = emptyEnvironmentView();
    foldEnvironment(view, down);
    expect(view.phases.setup).toBeNull();
    foldEnvironment(view, {
      type: "egress-phase-set",
      runId: "r1",
      phase: "agent",
      requested: "custom",
      applied: "off",
      problem: "no proxy",
    });
    foldEnvironment(view, { ...down, phase: "agent", state: "back" });
    expect(view.phases.agent).toEqual({ requested: "custom", applied: "off", problem: "no proxy" });
  });
});
