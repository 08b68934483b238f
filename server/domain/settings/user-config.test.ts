import { describe, expect, it } from "vitest";
import { DEFAULT_CHECKPOINTS } from "@/server/domain/policy/checkpoints";
import { layerCheckpoints } from "./repo-config";
import { tightenBudget, tightenLimits } from "./repo-tighten";
import { personBudget, personCheckpoints, personLimits, readUserSettings } from "./user-config";

const server = { maxDepth: 3, maxCyclesPerIntention: 3, maxIterations: 10, wallClockMs: 600_000 };

describe("a person's own settings only ever tighten", () => {
  it.each([
    [9, 9, "user"],
    [10, 10, "user"],
    [11, 10, "server"], // limit + 1: ignored
  ] as const)("maxIterations %s over the server's 10 gives %s (from %s)", (wanted, used, source) => {
    const out = personLimits(tightenLimits(server, undefined), { maxIterations: wanted });
    expect(out.value.maxIterations).toBe(used);
    expect(out.sources["limits.maxIterations"] ?? "server").toBe(source);
    expect(out.ignored.length).toBe(source === "server" ? 1 : 0);
  });

  it("lowers below the repository's value, never above it, and names whose value it kept", () => {
    const repo = tightenLimits(server, { maxIterations: 5 });
    expect(personLimits(repo, { maxIterations: 4 }).value.maxIterations).toBe(4);
    const higher = personLimits(repo, { maxIterations: 6 });
    expect(higher.value.maxIterations).toBe(5);
    expect(higher.ignored[0]).toMatchObject({ key: "limits.maxIterations", layer: "user" });
    expect(higher.ignored[0]?.reason).toContain("repo's 5");
  });

  it("sets a budget where none is set, and never raises one", () => {
    expect(personBudget(tightenBudget(null, undefined), { maxTokens: 100 }).value).toEqual({
      maxCostUsd: null,
      maxTokens: 100,
    });
    const raised = personBudget(tightenBudget({ maxCostUsd: 1, maxTokens: 100 }, undefined), {
      maxTokens: 101,
    });
    expect(raised.value?.maxTokens).toBe(100);
    expect(raised.ignored).toHaveLength(1);
  });

  it("asks more but never less, and pre-approves only what the layers below pre-approve", () => {
    const below = layerCheckpoints(
      { ...DEFAULT_CHECKPOINTS, commands: "ask-unlisted", preApproved: ["write"] },
      undefined,
    );
    const out = personCheckpoints(below, {
      commands: "never-ask",
      judgeAction: "ask",
      preApproved: ["write", "git-write"],
    });
    expect(out.policy.commands).toBe("ask-unlisted");
    expect(out.policy.judgeAction).toBe("ask");
    expect(out.sources.judgeAction).toBe("user");
    expect(out.policy.preApproved).toEqual(["write"]);
    expect(out.ignored.map((row) => row.key).sort()).toEqual([
      "checkpoints.commands",
      "checkpoints.preApproved",
    ]);
  });

  it("reads a row a newer version wrote as empty", () => {
    expect(readUserSettings('{"model":{"name":"m"},"future":1}')).toEqual({});
    expect(readUserSettings("not json")).toEqual({});
    expect(readUserSettings('{"model":{"name":"m"}}')).toEqual({ model: { name: "m" } });
  });
});
