import { describe, expect, it } from "vitest";
import { parseToolchainVersions, TOOLCHAIN_PROBES } from "./toolchains";

describe("parseToolchainVersions", () => {
  it("takes the version number out of each tool's own wording, in the probes' order", () => {
    const stdout = [
      "pip\tpip 23.0.1 from /usr/lib/python3/dist-packages/pip (python 3.11)",
      "node\tv24.21.0",
      "python3\tPython 3.11.2",
      "git\tgit version 2.39.5",
      "gcc\t12.2.0",
      "npm\t11.21.2",
      "pnpm\t",
      "yarn\t4.0.0-rc.1",
    ].join("\n");
    const versions = parseToolchainVersions(stdout);
    expect(versions.map((entry) => entry.name)).toEqual(TOOLCHAIN_PROBES.map((probe) => probe.name));
    expect(Object.fromEntries(versions.map((entry) => [entry.name, entry.version]))).toEqual({
      node: "24.21.0",
      npm: "11.21.2",
      corepack: null,
      pnpm: null,
      yarn: "4.0.0-rc.1",
      python3: "3.11.2",
      pip: "23.0.1",
      git: "2.39.5",
      gcc: "12.2.0",
    });
  });

  it("gives every tool as unknown for empty or garbled output", () => {
    expect(parseToolchainVersions("garbage\nno tabs here").every((entry) => entry.version === null)).toBe(
      true,
    );
  });
});
