import { describe, expect, it } from "vitest";
import { DEFAULT_CHECKPOINTS, STRICTEST_CHECKPOINTS } from "@/server/domain/policy/checkpoints";
import { checkRepoConfig, layerCheckpoints } from "./repo-config";
import { SETUP_COMMAND_MAX_CHARS } from "./setup-command";

describe("checkRepoConfig", () => {
  it("accepts the CLI's keys alongside the server's", () => {
    const result = checkRepoConfig({
      project: "shop",
      mode: "agent",
      approve: ["fs.write"],
      model: { name: "gpt-4.1", timeoutMs: 30_000 },
      checkpoints: { commands: "ask-always", judgeAction: "ask" },
    });
    expect(result).toEqual({
      status: "ok",
      config: {
        project: "shop",
        mode: "agent",
        approve: ["fs.write"],
        model: { name: "gpt-4.1", timeoutMs: 30_000 },
        checkpoints: { commands: "ask-always", judgeAction: "ask" },
      },
    });
  });

  it("treats an empty file as a valid file that sets nothing", () => {
    expect(checkRepoConfig(null)).toEqual({ status: "ok", config: {} });
  });

  it("adds no checkpoint defaults: an absent field inherits from the project", () => {
    const result = checkRepoConfig({ checkpoints: { qaReview: "on" } });
    expect(result.status === "ok" && result.config.checkpoints).toEqual({ qaReview: "on" });
  });

  it("takes a setup command, trimmed, up to 2000 characters", () => {
    const result = checkRepoConfig({ setup: { command: "  npm ci && npm run build\n" } });
    expect(result).toEqual({ status: "ok", config: { setup: { command: "npm ci && npm run build" } } });
    const longest = `echo ${"x".repeat(SETUP_COMMAND_MAX_CHARS - 5)}`;
    expect(checkRepoConfig({ setup: { command: longest } }).status).toBe("ok");
  });

  it.each([
    [
      { setup: { command: `echo ${"x".repeat(SETUP_COMMAND_MAX_CHARS - 4)}` } },
      "setup.command",
      "at most 2000",
    ],
    [{ setup: { command: "   " } }, "setup.command", "empty"],
    [{ setup: { command: "npm ci\r\necho x" } }, "setup.command", "control characters"],
    [{ setup: { command: 42 } }, "setup.command", "string"],
    [{ setup: {} }, "setup.command", ""],
    [{ setup: "npm ci" }, "setup", "object"],
    [
      { setup: { command: "npm ci", secrets: { NPM_TOKEN: "x" } } },
      "setup.secrets",
      "Network and setup card",
    ],
    [{ setup: { command: "npm ci", env: { A: "b" } } }, "setup", "env"],
  ])("refuses the setup value %j, naming %s", (raw, key, words) => {
    const result = checkRepoConfig(raw);
    expect(result.status).toBe("invalid");
    if (result.status === "invalid") {
      expect(result.problem).toContain(`${key}: `);
      expect(result.problem).toContain(words);
    }
  });

  it.each([
    [{ model: { baseUrl: "https://evil.example" } }, "model"],
    [{ model: { apiKey: "sk-123" } }, "model"],
    [{ provider: "openai" }, "(top level)"],
    [{ checkpoints: { commands: "sometimes" } }, "checkpoints.commands"],
    [{ checkpoints: { preApproved: ["shell"] } }, "checkpoints.preApproved.0"],
    [{ model: { timeoutMs: 5 } }, "model.timeoutMs"],
    [["a", "list"], "(top level)"],
  ])("refuses %j and names %s", (raw, key) => {
    const result = checkRepoConfig(raw);
    expect(result.status).toBe("invalid");
    if (result.status === "invalid") {
      expect(result.problem).toContain(".arbor/config.yaml on the default branch");
      expect(result.problem).toContain(`${key}:`);
    }
  });
});

describe("layerCheckpoints", () => {
  it("takes the repository's fields over the project's and says which came from where", () => {
    const { policy, sources } = layerCheckpoints(DEFAULT_CHECKPOINTS, {
      commands: "ask-always",
      qaReview: "on",
    });
    expect(policy).toEqual({ ...DEFAULT_CHECKPOINTS, commands: "ask-always", qaReview: "on" });
    expect(sources.commands).toBe("repo");
    expect(sources.qaReview).toBe("repo");
    expect(sources.judgeAction).toBe("project");
    expect(Object.keys(sources).sort()).toEqual(Object.keys(DEFAULT_CHECKPOINTS).sort());
  });

  it("never loosens: a looser repository value is ignored, lists only narrow or widen the denials", () => {
    const { policy, sources } = layerCheckpoints(STRICTEST_CHECKPOINTS, {
      commands: "never-ask",
      decompositions: "auto",
      judgeAction: "auto",
      outOfScopeWrites: "ask",
      preApproved: ["write", "git-write"],
    });
    expect(policy).toEqual(STRICTEST_CHECKPOINTS);
    expect(Object.values(sources).every((source) => source === "project")).toBe(true);
    const ls = { program: "ls", args: [] };
    const cat = { program: "cat", args: [] };
    const rm = { program: "rm", args: ["-rf", "/"] };
    const curl = { program: "curl", args: [] };
    const narrowed = layerCheckpoints(
      { ...DEFAULT_CHECKPOINTS, preApproved: ["write", "git-write"], allowCommands: [ls, cat] },
      { preApproved: ["write"], allowCommands: [ls, rm], denyCommands: [curl] },
    );
    expect(narrowed.policy.preApproved).toEqual(["write"]);
    expect(narrowed.policy.allowCommands).toEqual([ls]);
    expect(narrowed.policy.denyCommands).toEqual([curl]);
    expect(narrowed.sources.preApproved).toBe("repo");
  });

  it("leaves the project's policy (even the strictest one) whole with no repository layer", () => {
    const { policy, sources } = layerCheckpoints(STRICTEST_CHECKPOINTS, undefined);
    expect(policy).toEqual(STRICTEST_CHECKPOINTS);
    expect(Object.values(sources).every((source) => source === "project")).toBe(true);
  });
});
