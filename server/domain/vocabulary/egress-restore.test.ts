import { describe, expect, it } from "vitest";
import { EgressSettings } from "./egress";
import { restoredEgress } from "./egress-restore";

const settings = (value: unknown) => EgressSettings.parse(value);

describe("restoredEgress", () => {
  it("gives nothing back when nothing was recorded", () => {
    expect(restoredEgress(null, settings({}))).toBeNull();
  });

  it("gives back the recorded phase when the settings did not change", () => {
    const now = settings({ agent: { mode: "custom" }, allowList: ["a.example", ".b.example"] });
    const restored = restoredEgress(
      { phase: "agent", applied: "custom", getHeadOnly: false, allowList: ["a.example", ".b.example"] },
      now,
    );
    expect(restored).toEqual({
      phase: "agent",
      settings: {
        setup: { mode: "off", getHeadOnly: false },
        agent: { mode: "custom", getHeadOnly: false },
        allowList: ["a.example", ".b.example"],
      },
      problem: null,
    });
  });

  it("never widens: settings that became wider keep what was recorded", () => {
    const open = settings({ setup: { mode: "open" }, allowList: ["a.example", "c.example"] });
    expect(
      restoredEgress({ phase: "setup", applied: "custom", allowList: ["a.example"] }, open)?.settings,
    ).toMatchObject({ setup: { mode: "custom" }, allowList: ["a.example"] });
    expect(restoredEgress({ phase: "setup", applied: "registries" }, open)?.settings.setup.mode).toBe(
      "registries",
    );
    // A recorded Off stays Off, whatever the settings say now.
    expect(restoredEgress({ phase: "setup", applied: "off" }, open)?.settings.setup.mode).toBe("off");
  });

  it("takes the tighter settings of now, and says so", () => {
    const shorter = settings({ agent: { mode: "custom", getHeadOnly: true }, allowList: ["a.example"] });
    const restored = restoredEgress(
      { phase: "agent", applied: "custom", allowList: ["a.example", "b.example"] },
      shorter,
    );
    expect(restored?.settings).toMatchObject({
      agent: { mode: "custom", getHeadOnly: true },
      allowList: ["a.example"],
    });
    expect(restored?.problem).toMatch(/tighter/);
    const registries = settings({ agent: { mode: "registries" } });
    expect(restoredEgress({ phase: "agent", applied: "open" }, registries)?.settings.agent.mode).toBe(
      "registries",
    );
    expect(restoredEgress({ phase: "agent", applied: "open" }, settings({}))?.settings.agent.mode).toBe(
      "off",
    );
  });

  it("runs Off, with the reason, when what it needs cannot be read or compared", () => {
    const custom = settings({ agent: { mode: "custom" }, allowList: ["a.example"] });
    const cases = [
      restoredEgress({ phase: "agent", applied: "custom" }, custom),
      restoredEgress({ phase: "agent", applied: "registries" }, null),
      restoredEgress({ phase: "agent", applied: "registries" }, custom),
    ];
    for (const restored of cases) {
      expect(restored?.settings.agent.mode).toBe("off");
      expect(restored?.problem).toMatch(/Off/);
    }
  });
});
