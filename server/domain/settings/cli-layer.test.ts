import { describe, expect, it } from "vitest";
import { EventBody } from "@/server/domain/events/schema";
import { DEFAULT_CHECKPOINTS } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { resolveModelSettings } from "@/server/settings/layers";
import { personModelLayer } from "@/server/settings/user-layer";
import { model, sequence } from "@/testing/events/events";
import { layerCheckpoints } from "./repo-config";
import { tightenBudget, tightenLimits } from "./repo-tighten";
import { personBudget, personCheckpoints, personLimits, userSettingEntries } from "./user-config";

/**
 * Issue #20: the CLI user file's server keys are a run's own person layer, over the person's stored
 * one. Checkpoints, limits and budgets only ever tighten; the model name and timeout beat the stored
 * ones and nothing above them; the layer survives the log as the run recorded it.
 */
const server = { maxDepth: 3, maxCyclesPerIntention: 3, maxIterations: 10, wallClockMs: 600_000 };

describe("a run's CLI user file layer", () => {
  it("lowers a limit below the stored person's, and a looser value is ignored with the file named", () => {
    const stored = personLimits(tightenLimits(server, undefined), { maxIterations: 6 });
    const lower = personLimits(stored, { maxIterations: 5 }, "cli");
    expect(lower.value.maxIterations).toBe(5);
    expect(lower.sources["limits.maxIterations"]).toBe("cli");
    const looser = personLimits(stored, { maxIterations: 7, maxDepth: 4, wallClockSeconds: 60 }, "cli");
    expect(looser.value).toEqual({ ...server, maxIterations: 6, wallClockMs: 60_000 });
    expect(looser.ignored.map((row) => [row.key, row.layer])).toEqual([
      ["limits.maxDepth", "cli"],
      ["limits.maxIterations", "cli"],
    ]);
    expect(looser.ignored[1]?.reason).toBe(
      "higher than your own settings' 6: your CLI config (~/.config/arbor/config.yaml) may only lower it",
    );
  });

  it("never raises a budget and never loosens a checkpoint the stored person tightened", () => {
    const budget = personBudget(
      personBudget(tightenBudget({ maxCostUsd: 2, maxTokens: null }, undefined), { maxCostUsd: 1 }),
      { maxCostUsd: 1.5, maxTokens: 500 },
      "cli",
    );
    expect(budget.value).toEqual({ maxCostUsd: 1, maxTokens: 500 });
    expect(budget.ignored.map((row) => row.key)).toEqual(["budgets.maxCostUsd"]);

    const stored = personCheckpoints(layerCheckpoints(DEFAULT_CHECKPOINTS, undefined), {
      commands: "ask-always",
    });
    const cli = personCheckpoints(stored, { commands: "never-ask", judgeAction: "ask" }, "cli");
    expect(cli.policy.commands).toBe("ask-always");
    expect(cli.sources.commands).toBe("user");
    expect(cli.policy.judgeAction).toBe("ask");
    expect(cli.sources.judgeAction).toBe("cli");
    expect(cli.ignored).toEqual([
      expect.objectContaining({ key: "checkpoints.commands", layer: "cli", value: "never-ask" }),
    ]);
  });

  it("names the model over the stored person's choice, under the repository, the environment and the run", () => {
    const user = {
      ...personModelLayer({ model: { name: "stored", timeoutMs: 9_000 } }),
      ...personModelLayer({ model: { name: "from-file" } }),
    };
    const under = resolveModelSettings({ user, project: { modelName: "project" } });
    expect([under.modelName, under.sources.modelName, under.timeoutMs]).toEqual(["from-file", "user", 9_000]);
    for (const layer of ["repo", "environment", "run"] as const) {
      const above = resolveModelSettings({ user, [layer]: { modelName: layer } });
      expect([above.modelName, above.sources.modelName]).toEqual([layer, layer]);
    }
  });

  it("is recorded in run-started and folds back exactly as sent, with what was ignored", () => {
    const cliConfig = {
      settings: {
        checkpoints: { commands: "ask-always" as const },
        limits: { maxIterations: 3, maxDepth: 49 },
      },
      ignored: [{ key: "limits.maxDepth", value: "49", reason: "higher than the server's 3" }],
    };
    const body = EventBody.parse({
      type: "run-started",
      runId: "r1",
      task: "t",
      mode: "agent",
      model,
      cliConfig,
    });
    const view = foldEvents(sequence([body]));
    expect(view.runs.r1?.cliConfig).toEqual(cliConfig);
    expect(userSettingEntries(cliConfig.settings)).toEqual([
      ["checkpoints.commands", "ask-always"],
      ["limits.maxIterations", "3"],
      ["limits.maxDepth", "49"],
    ]);
    // A recorded layer the schema refuses (a newer or tampered log) is not folded as something looser.
    expect(() =>
      EventBody.parse({ ...body, cliConfig: { settings: { limits: { maxIterations: 0 } }, ignored: [] } }),
    ).toThrow();
  });
});
