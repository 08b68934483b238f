import { describe, expect, it } from "vitest";
import { DEFAULT_CHECKPOINTS } from "@/server/domain/policy/checkpoints";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import { DEFAULT_EGRESS, type EgressSettings } from "@/server/domain/vocabulary/egress";
import { checkRepoConfig, layerCheckpoints } from "./repo-config";
import {
  ignoredCheckpoints,
  tightenBudget,
  tightenEgress,
  tightenLimits,
  tightenResources,
} from "./repo-tighten";

describe("the repository may only tighten: limits", () => {
  it.each([
    // [file, maxIterations used, source, ignored keys]
    [undefined, 10, "server", []],
    [{ maxIterations: 3 }, 3, "repo", []],
    [{ maxIterations: 10 }, 10, "repo", []],
    [{ maxIterations: 11 }, 10, "server", ["limits.maxIterations"]],
  ] as const)("maxIterations %j", (repo, used, source, ignored) => {
    const result = tightenLimits(DEFAULT_LIMITS, repo);
    expect(result.value.maxIterations).toBe(used);
    expect(result.sources["limits.maxIterations"]).toBe(source);
    expect(result.ignored.map((row) => row.key)).toEqual(ignored);
  });

  it("lowers the wall clock in seconds and says why a higher depth is not used", () => {
    const result = tightenLimits(DEFAULT_LIMITS, { wallClockSeconds: 60, maxDepth: 11 });
    expect(result.value.wallClockMs).toBe(60_000);
    expect(result.value.maxDepth).toBe(DEFAULT_LIMITS.maxDepth);
    expect(result.ignored).toEqual([
      {
        key: "limits.maxDepth",
        value: "11",
        reason: "higher than the server's 10: a repository may only lower it",
      },
    ]);
  });
});

describe("the repository may only tighten: budgets", () => {
  it("sets a budget when the server has none (unlimited is the loosest)", () => {
    const result = tightenBudget(null, { maxTokens: 5_000 });
    expect(result.value).toEqual({ maxCostUsd: null, maxTokens: 5_000 });
    expect(result.sources["budgets.maxTokens"]).toBe("repo");
  });

  it("lowers the server's cost budget and refuses to raise it (limit + 1)", () => {
    const server = { maxCostUsd: 2, maxTokens: 1_000 };
    expect(tightenBudget(server, { maxCostUsd: 1 }).value).toEqual({ maxCostUsd: 1, maxTokens: 1_000 });
    const raised = tightenBudget(server, { maxCostUsd: 3, maxTokens: 1_001 });
    expect(raised.value).toEqual(server);
    expect(raised.ignored.map((row) => row.key)).toEqual(["budgets.maxCostUsd", "budgets.maxTokens"]);
  });

  it("keeps no budget when neither layer has one", () => {
    expect(tightenBudget(null, undefined).value).toBeNull();
  });
});

describe("the repository may only tighten: sandbox resources", () => {
  const effective = { cpus: 2, memoryMb: 1024, pids: 256, workspaceMb: 512 };
  it("takes smaller values, ignores bigger ones and names the layer they were compared with", () => {
    const result = tightenResources(effective, new Set(["memoryMb"]), {
      cpus: 1,
      memoryMb: 1025,
      pids: 257,
    });
    expect(result.value).toEqual({ cpus: 1, memoryMb: 1024, pids: 256, workspaceMb: 512 });
    expect(result.sources).toMatchObject({ "sandbox.cpus": "repo", "sandbox.memoryMb": "project" });
    expect(result.ignored.map((row) => [row.key, row.reason])).toEqual([
      ["sandbox.memoryMb", "higher than the project's 1024: a repository may only lower it"],
      ["sandbox.pids", "higher than the server's 256: a repository may only lower it"],
    ]);
  });
});

describe("the repository may only tighten: network", () => {
  const custom: EgressSettings = {
    setup: { mode: "custom", getHeadOnly: false },
    agent: { mode: "open", getHeadOnly: true },
    allowList: ["a.example", "b.example"],
  };

  it.each([
    // [project agent mode, repo agent mode, used]
    ["off", "registries", "off"],
    ["off", "open", "off"],
    ["registries", "off", "off"],
    ["registries", "custom", "registries"],
    ["custom", "registries", "custom"],
    ["open", "registries", "registries"],
    ["open", "custom", "custom"],
  ] as const)("agent phase %s with the file's %s runs %s", (project, repo, used) => {
    const result = tightenEgress({ ...DEFAULT_EGRESS, agent: { mode: project, getHeadOnly: false } }, true, {
      agent: { mode: repo },
    });
    expect(result.value.agent.mode).toBe(used);
    expect(result.ignored.length).toBe(used === repo ? 0 : 1);
  });

  it("keeps only the hosts both lists allow, and GET/HEAD only once the project asks it", () => {
    const result = tightenEgress(custom, true, {
      allowList: ["b.example", "c.example"],
      agent: { getHeadOnly: false },
      setup: { getHeadOnly: true },
    });
    expect(result.value.allowList).toEqual(["b.example"]);
    expect(result.value.setup.getHeadOnly).toBe(true);
    expect(result.value.agent.getHeadOnly).toBe(true);
    expect(result.ignored.map((row) => [row.key, row.value])).toEqual([
      ["network.agent.getHeadOnly", "false"],
      ["network.allowList", "c.example"],
    ]);
    expect(result.sources["network.allowList"]).toBe("repo");
  });

  it("uses the file's own list where it narrows an open phase to a custom list", () => {
    const open = { ...DEFAULT_EGRESS, agent: { mode: "open" as const, getHeadOnly: false } };
    const result = tightenEgress(open, false, { agent: { mode: "custom" }, allowList: ["x.example"] });
    expect(result.value.agent.mode).toBe("custom");
    expect(result.value.allowList).toEqual(["x.example"]);
    expect(result.sources["network.agent.mode"]).toBe("repo");
    expect(result.sources["network.setup.mode"]).toBe("server");
  });
});

describe("checkpoints the file loosens are shown as ignored", () => {
  it("names the looser field and the pre-approval the project does not have", () => {
    const project = {
      ...DEFAULT_CHECKPOINTS,
      commands: "ask-always" as const,
      preApproved: ["write" as const],
    };
    const repo = { commands: "never-ask" as const, preApproved: ["write" as const, "git-write" as const] };
    const { policy } = layerCheckpoints(project, repo);
    const ignored = ignoredCheckpoints(project, repo, policy);
    expect(policy.commands).toBe("ask-always");
    expect(policy.preApproved).toEqual(["write"]);
    expect(ignored.map((row) => [row.key, row.value])).toEqual([
      ["checkpoints.commands", "never-ask"],
      ["checkpoints.preApproved", "git-write"],
    ]);
  });

  it("ignores nothing the file tightens", () => {
    const repo = { commands: "ask-always" as const, judgeAction: "ask" as const };
    const { policy } = layerCheckpoints(DEFAULT_CHECKPOINTS, repo);
    expect(ignoredCheckpoints(DEFAULT_CHECKPOINTS, repo, policy)).toEqual([]);
  });
});

describe("the file's schema for the new sections", () => {
  it("accepts limits, budgets, sandbox and network and refuses unknown keys with their path", () => {
    const ok = checkRepoConfig({
      limits: { maxIterations: 3, wallClockSeconds: 120 },
      budgets: { maxCostUsd: 0.5 },
      sandbox: { memoryMb: 512 },
      network: { agent: { mode: "off" }, allowList: ["registry.npmjs.org"] },
    });
    expect(ok.status).toBe("ok");
    const bad = checkRepoConfig({ limits: { maxIterations: 0 }, network: { agent: { proxy: "x" } } });
    expect(bad.status === "invalid" && bad.problem).toMatch(/limits\.maxIterations: .*network\.agent: /);
  });
});
