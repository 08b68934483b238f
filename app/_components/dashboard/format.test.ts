import { describe, expect, it } from "vitest";
import { decimal, duration, percent, usd } from "./format";

describe("dashboard formats", () => {
  it("writes a dash for what cannot be measured yet", () => {
    expect([percent(null), usd(null), decimal(null), duration(null)]).toEqual(["—", "—", "—", "—"]);
  });
  it("rounds percentages and keeps small costs readable", () => {
    expect(percent(1 / 3)).toBe("33%");
    expect(usd(0.00123)).toBe("$0.0012");
    expect(usd(0)).toBe("$0.00");
    expect(usd(12.345)).toBe("$12.35");
  });
  it("picks the unit of a waiting time", () => {
    expect(duration(250)).toBe("250 ms");
    expect(duration(20_000)).toBe("20.0 s");
    expect(duration(90_000)).toBe("1.5 min");
    expect(duration(7_200_000)).toBe("2.0 h");
  });
});
