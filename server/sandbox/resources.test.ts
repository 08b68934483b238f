import { describe, expect, it } from "vitest";
import { ProjectResources } from "@/server/domain/vocabulary/sandbox-resources";
import { hostPidsLimit } from "./container-spec";
import {
  effectiveResources,
  limitsOf,
  type ResourcePolicy,
  readProjectResources,
  resourceProblems,
} from "./resources";

const policy: ResourcePolicy = {
  defaults: { cpus: 1, memoryMb: 1024, pids: 256, workspaceMb: 2048 },
  caps: { cpus: 2, memoryMb: 4096, pids: 1024, workspaceMb: 2048 },
};

describe("project resources", () => {
  it("takes the project's values, the defaults for the rest, never over a cap", () => {
    expect(effectiveResources({ cpus: 1.5, memoryMb: 512 }, policy)).toEqual({
      cpus: 1.5,
      memoryMb: 512,
      pids: 256,
      workspaceMb: 2048,
    });
    // A cap lowered after the project was saved still holds.
    expect(effectiveResources({ memoryMb: 8192 }, policy).memoryMb).toBe(4096);
  });

  it("names every value over its cap, with the setting that raises it", () => {
    expect(resourceProblems({ cpus: 4, memoryMb: 100, pids: 5000 }, policy)).toEqual([
      "CPUs 4 is over this server's cap of 2 (ARBOR_SANDBOX_MAX_CPUS).",
      "Processes 5000 is over this server's cap of 1024 (ARBOR_SANDBOX_MAX_PIDS).",
    ]);
    expect(resourceProblems({}, policy)).toEqual([]);
  });

  it("refuses nonsense before the caps are even asked", () => {
    expect(ProjectResources.safeParse({ memoryMb: 10 }).success).toBe(false);
    expect(ProjectResources.safeParse({ cpus: 0.3 }).success).toBe(false);
    expect(ProjectResources.safeParse({ pids: 1.5 }).success).toBe(false);
    expect(ProjectResources.safeParse({ disk: 5 }).success).toBe(false);
  });

  it("reads a damaged stored value as the defaults", () => {
    expect(readProjectResources("{not json")).toEqual({});
    expect(readProjectResources('{"cpus":-1}')).toEqual({});
    expect(readProjectResources(null)).toEqual({});
  });

  it("converts to Docker's units", () => {
    expect(limitsOf({ cpus: 0.5, memoryMb: 256, pids: 64, workspaceMb: null })).toEqual({
      nanoCpus: 500_000_000,
      memoryBytes: 256 * 1024 * 1024,
      pidsLimit: 64,
    });
  });
});

describe("hostPidsLimit", () => {
  it("keeps runc's limit and leaves gVisor's Sentry room for its threads", () => {
    expect(hostPidsLimit(256, "runc")).toBe(256);
    expect(hostPidsLimit(256, undefined)).toBe(256);
    expect(hostPidsLimit(256, "runsc")).toBe(2048);
    expect(hostPidsLimit(1024, "runsc")).toBe(8192);
  });
});
