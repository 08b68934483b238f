import { describe, expect, it } from "vitest";
import { RISK_CLASSES, requiresApproval, requiresConfirmation, stricterRisk } from "./risk";

describe("risk classes", () => {
  it("asks for approval above safe and for confirmation only when dangerous", () => {
    expect(RISK_CLASSES.map(requiresApproval)).toEqual([false, true, true]);
    expect(RISK_CLASSES.map(requiresConfirmation)).toEqual([false, false, true]);
  });

  it("picks the stricter of two risk classes, in either order", () => {
    for (const a of RISK_CLASSES) {
      for (const b of RISK_CLASSES) {
        const expected = RISK_CLASSES[Math.max(RISK_CLASSES.indexOf(a), RISK_CLASSES.indexOf(b))];
        expect(stricterRisk(a, b)).toBe(expected);
      }
    }
  });
});
