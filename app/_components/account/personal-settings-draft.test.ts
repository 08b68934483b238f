import { describe, expect, it } from "vitest";
import { draftOf, settingsOf } from "./personal-settings-draft";

describe("the personal settings form", () => {
  const stored = {
    model: { name: "m1", timeoutMs: 30_000 },
    checkpoints: { commands: "ask-always" as const, denyCommands: [{ program: "curl", args: [] }] },
    limits: { maxIterations: 4 },
  };

  it("round-trips a stored layer, keeping the keys the form does not show", () => {
    const draft = draftOf(stored);
    expect(draft).toMatchObject({
      modelName: "m1",
      timeoutSeconds: "30",
      commands: "ask-always",
      maxIterations: "4",
    });
    expect(settingsOf(draft, stored)).toEqual({ ok: true, settings: stored });
  });

  it("clears a field left empty, and the whole layer when nothing is set", () => {
    const cleared = settingsOf(
      { ...draftOf(stored), modelName: "", timeoutSeconds: "", maxIterations: "" },
      stored,
    );
    expect(cleared).toEqual({ ok: true, settings: { checkpoints: stored.checkpoints } });
    expect(settingsOf(draftOf({}), {})).toEqual({ ok: true, settings: {} });
  });

  it("shows a looser stored choice as unset (it would be ignored) and saves it away", () => {
    const draft = draftOf({ checkpoints: { decompositions: "auto", commands: "never-ask" } });
    expect(draft.decompositions).toBe("");
    expect(draft.commands).toBe("");
  });

  it("names the field of a bad value instead of saving it", () => {
    expect(settingsOf({ ...draftOf({}), maxIterations: "lots" }, {})).toEqual({
      ok: false,
      problem: "Actions per run: must be a number",
    });
    const zero = settingsOf({ ...draftOf({}), maxIterations: "0" }, {});
    expect(zero.ok).toBe(false);
    expect(!zero.ok && zero.problem).toMatch(/^Actions per run: /);
    const slow = settingsOf({ ...draftOf({}), timeoutSeconds: "9999" }, {});
    expect(!slow.ok && slow.problem).toMatch(/^Model timeout: /);
    expect(settingsOf({ ...draftOf({}), maxCostUsd: "0.25" }, {})).toEqual({
      ok: true,
      settings: { budgets: { maxCostUsd: 0.25 } },
    });
  });
});
