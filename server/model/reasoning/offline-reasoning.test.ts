import { describe, expect, it } from "vitest";
import { compactReasoning } from "@/server/domain/policy/reasoning-outcome";
import { createOfflineModel, offlineWarmup } from "../offline-model";
import { offlineReflectionText } from "./offline-reasoning";
import { outcomeLines } from "./outcome-prompt";

const request = { runId: "r1", mode: "agent" as const, reasoning: "on" as const };

function bullets(text: string): string[] {
  return text.split("\n").filter((line) => line.startsWith("- "));
}

describe("the offline model's reasoning", () => {
  it("writes the warmup's six sections, and its outcome says what it will do first", () => {
    const { text, call } = offlineWarmup("create `notes.txt` containing `hi` and then run `cat notes.txt`");
    for (const section of ["Analyze", "Research", "Plan", "Reflect", "Action", "Delivery"])
      expect(text).toContain(`**${section}**`);
    expect(text).toContain("`notes.txt`");
    expect(call).toMatchObject({ stage: "warmup", offline: true, tools: [] });
    const outcome = compactReasoning(text);
    expect(outcome.plan_delta).toContain("1. create `notes.txt`");
    expect(outcome.next_action).toContain("fs.write `notes.txt`");
    expect(outcome.known_risks).toContain("offline model");
    expect(outcome.delivery_state).toBe("NEEDS_WORK");
  });

  it("reflects in 3–8 bullets on each act turn with reasoning on, and not at all with it off", async () => {
    const model = createOfflineModel();
    const input = { task: "t", what: "run `ls`", acceptance: "", previousAttempts: [] };
    const on = await model.nextAction({ ...input, request });
    expect(on.reasoning).toBeDefined();
    const count = bullets(on.reasoning ?? "").length;
    expect(count).toBeGreaterThanOrEqual(3);
    expect(count).toBeLessThanOrEqual(8);
    expect(compactReasoning(on.reasoning ?? "").next_action).toContain("shell.exec `ls`");
    const off = await model.nextAction({ ...input, request: { ...request, reasoning: "off" } });
    expect(off.reasoning).toBeUndefined();
  });

  it("a retry's reflection names the last attempt", () => {
    const action = { thought: "run it", tool: "shell.exec", input: { command: "make" } };
    const text = offlineReflectionText("run `make`", ["COMMAND make → FAILURE: exit code 2"], action);
    expect(compactReasoning(text).plan_delta).toContain("attempt 2");
    expect(compactReasoning(text).plan_delta).toContain("exit code 2");
  });

  it("renders the compact outcome as four lines, never the full text", () => {
    const outcome = compactReasoning(offlineWarmup("run `ls`").text);
    const lines = outcomeLines(outcome).split("\n");
    expect(lines.map((line) => line.split(":")[0])).toEqual([
      "- plan_delta",
      "- next_action",
      "- known_risks",
      "- delivery_state",
    ]);
    expect(outcomeLines(outcome)).not.toContain("Analyze");
  });
});
