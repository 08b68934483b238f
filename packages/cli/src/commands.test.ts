import { describe, expect, it } from "vitest";
import { setupLines } from "./commands";

describe("arbor config list --server: the setup command", () => {
  it("names the file as its source and says it waits for a person's approval", () => {
    expect(
      setupLines({
        command: "npm ci && npm run build",
        source: "repo",
        sourceLabel: "from .arbor/config.yaml on main",
        approved: false,
        repoCommand: "npm ci && npm run build",
      }),
    ).toEqual([
      "setup.command = npm ci && npm run build  (from .arbor/config.yaml on main; not approved: new sessions skip it until a person approves this exact text on the Network and setup card)",
    ]);
  });

  it("says when the project's own command beats the file's, and prints nothing without a command", () => {
    expect(
      setupLines({
        command: "make deps",
        source: "project",
        sourceLabel: "the project's own command, on the Network and setup card",
        approved: true,
        repoCommand: "npm ci",
      }),
    ).toEqual([
      "setup.command = make deps  (the project's own command, on the Network and setup card; approved)",
      "! setup.command = npm ci in .arbor/config.yaml is not used: the project's own command beats it",
    ]);
    expect(
      setupLines({ command: null, source: null, sourceLabel: null, approved: false, repoCommand: null }),
    ).toEqual([]);
  });
});
