import { describe, expect, it } from "vitest";
import { chooseSetupCommand, SetupCommandInput, setupSourceLabel } from "./setup-command";

describe("chooseSetupCommand: card > repository > lock file", () => {
  it.each([
    [{ project: "make deps", repo: "npm ci && npm run build", detected: "npm ci" }, "make deps", "project"],
    [
      { project: null, repo: "npm ci && npm run build", detected: "npm ci" },
      "npm ci && npm run build",
      "repo",
    ],
    [{ project: null, repo: null, detected: "npm ci" }, "npm ci", "detected"],
    [{ project: "make deps", repo: null, detected: null }, "make deps", "project"],
  ] as const)("%j proposes %s (from %s)", (candidates, command, source) => {
    expect(chooseSetupCommand(candidates)).toEqual({ command, source });
  });

  it("proposes nothing when no place names a command", () => {
    expect(chooseSetupCommand({ project: null, repo: null, detected: null })).toBeNull();
  });

  it("says where a command came from", () => {
    expect(setupSourceLabel("repo", "main")).toBe("from .arbor/config.yaml on main");
    expect(setupSourceLabel("detected", "main")).toBe("detected from the lock file");
    expect(setupSourceLabel("project", "trunk")).toMatch(/Network and setup card/);
  });

  it("bounds the card's input at 2000 characters (2001 refused)", () => {
    expect(SetupCommandInput.safeParse("x".repeat(2_000)).success).toBe(true);
    expect(SetupCommandInput.safeParse("x".repeat(2_001)).success).toBe(false);
    expect(SetupCommandInput.safeParse(null).success).toBe(true);
  });
});
