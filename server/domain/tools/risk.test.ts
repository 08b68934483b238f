import { describe, expect, it } from "vitest";
import {
  categoryOf,
  isMutatingTool,
  RISK_CLASSES,
  requiresApproval,
  requiresConfirmation,
  riskOf,
  stricterRisk,
  TOOL_NAMES,
  TOOL_PROFILES,
  toolProfile,
} from "./risk";

// Seed 004's classes, written out by hand so the table in risk.ts is checked against the seed.
const SEED_RISK = {
  "fs.read": "safe",
  "fs.list": "safe",
  "fs.search": "safe",
  "git.status": "safe",
  "git.diff": "safe",
  "git.log": "safe",
  select_active_intent: "safe",
  "setup.run": "dangerous",
  "fs.write": "moderate",
  "fs.edit": "moderate",
  "git.add": "moderate",
  "git.commit": "moderate",
  "git.branch": "moderate",
  "fs.delete": "dangerous",
  "shell.exec": "dangerous",
  "git.checkout": "dangerous",
} as const;

describe("risk table", () => {
  it("covers exactly the tool vocabulary", () => {
    expect(Object.keys(TOOL_PROFILES).sort()).toEqual([...TOOL_NAMES].sort());
    expect(Object.keys(SEED_RISK).sort()).toEqual([...TOOL_NAMES].sort());
  });

  it.each(Object.entries(SEED_RISK))("%s is %s", (tool, risk) => {
    expect(riskOf(tool)).toBe(risk);
    expect(isMutatingTool(tool)).toBe(risk !== "safe");
  });

  it.each([
    ["fs.read", "read"],
    ["fs.delete", "write"],
    ["git.diff", "git-read"],
    ["git.checkout", "git-write"],
    ["shell.exec", "shell"],
    ["select_active_intent", "intent"],
  ])("%s belongs to the %s category", (tool, category) => {
    expect(categoryOf(tool)).toBe(category);
  });

  it.each(["fs.rm", "", "FS.READ", "constructor", "__proto__", "toString", "shell.exec "])(
    "an unknown tool %j has no profile and counts as mutating",
    (tool) => {
      expect(toolProfile(tool)).toBeNull();
      expect(riskOf(tool)).toBeNull();
      expect(categoryOf(tool)).toBeNull();
      expect(isMutatingTool(tool)).toBe(true);
    },
  );

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
