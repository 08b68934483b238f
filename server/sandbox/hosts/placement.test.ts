import { describe, expect, it } from "vitest";
import { chooseHost, type HostLoad, noHostReason } from "./placement";

const GiB = 1024 ** 3;
const host = (id: string, load: Partial<HostLoad> = {}): HostLoad => ({
  id,
  healthy: true,
  runningSessions: 0,
  maxSessions: 4,
  freeMemoryBytes: 8 * GiB,
  ...load,
});

describe("chooseHost", () => {
  it("takes the host with the most free memory", () => {
    const chosen = chooseHost(
      [host("a", { freeMemoryBytes: 2 * GiB }), host("b", { freeMemoryBytes: 6 * GiB })],
      GiB,
    );
    expect(chosen?.id).toBe("b");
  });

  it("breaks a memory tie by fewer running sessions, then by configuration order", () => {
    expect(chooseHost([host("a", { runningSessions: 2 }), host("b", { runningSessions: 1 })], GiB)?.id).toBe(
      "b",
    );
    expect(chooseHost([host("a"), host("b")], GiB)?.id).toBe("a");
  });

  it("prefers a higher priority over free memory, and falls back to a lower one when it cannot take it", () => {
    const spare = host("spare", { priority: -1, freeMemoryBytes: 64 * GiB });
    const dedicated = host("dedicated", { priority: 1, freeMemoryBytes: 2 * GiB });
    expect(chooseHost([spare, dedicated], GiB)?.id).toBe("dedicated");
    expect(chooseHost([spare, { ...dedicated, healthy: false }], GiB)?.id).toBe("spare");
    expect(chooseHost([spare, { ...dedicated, runningSessions: 4 }], GiB)?.id).toBe("spare");
  });

  it("never places on a host that is down", () => {
    const chosen = chooseHost([host("a", { healthy: false, freeMemoryBytes: 64 * GiB }), host("b")], GiB);
    expect(chosen?.id).toBe("b");
  });

  it("skips a host at its session cap (cap + 1 is refused) and one without the memory", () => {
    const atCap = host("a", { runningSessions: 4, freeMemoryBytes: 64 * GiB });
    const belowCap = host("b", { runningSessions: 3 });
    expect(chooseHost([atCap, belowCap], GiB)?.id).toBe("b");
    expect(
      chooseHost([host("a", { freeMemoryBytes: GiB - 1 }), host("b", { freeMemoryBytes: GiB })], GiB)?.id,
    ).toBe("b");
  });

  it("returns null with a reason when no host can take the session", () => {
    const down = [host("a", { healthy: false }), host("b", { healthy: false })];
    expect(chooseHost(down, GiB)).toBeNull();
    expect(noHostReason(down)).toMatch(/No Docker host answers \(a, b\)/);
    const full = [host("a", { runningSessions: 4 })];
    expect(chooseHost(full, GiB)).toBeNull();
    expect(noHostReason(full)).toMatch(/a: 4\/4 sessions/);
  });
});
