import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { cycle, decomposedRun, sequence } from "@/testing/events/events";
import { OUTPUT_CAP, PREVIOUS_ATTEMPTS_CAP, type TrainingExample, trainingExamples } from "./training";

const run = "run-1";

/** A cycle on c1 with its own command, exit code, output and reflection. */
function attempt(
  cycleId: string,
  index: number,
  command: string,
  exitCode: number,
  output: string,
): EventInput[] {
  return [
    {
      type: "cycle-started",
      runId: run,
      intentionId: "c1",
      cycleId,
      index,
      thought: `try ${command}`,
      action: { type: "COMMAND", content: command, target: null },
    },
    {
      type: "cycle-result",
      runId: run,
      intentionId: "c1",
      cycleId,
      exitCode,
      output,
      timedOut: false,
      error: null,
      durationMs: 1,
    },
    {
      type: "cycle-judged",
      runId: run,
      intentionId: "c1",
      cycleId,
      judgment: exitCode === 0 ? "SUCCESS" : "FAILURE",
      judgedBy: "auto",
      reason: `exit ${exitCode}`,
    },
    ...(exitCode === 0
      ? []
      : [
          {
            type: "cycle-reflected",
            runId: run,
            intentionId: "c1",
            cycleId,
            reflection: `${command} failed`,
          } satisfies EventInput,
        ]),
  ];
}

function parseLines(jsonl: string): TrainingExample[] {
  return jsonl
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as TrainingExample);
}

describe("trainingExamples", () => {
  it("writes one JSON line per judged cycle, in the order the agent worked", () => {
    const jsonl = trainingExamples(
      sequence([...decomposedRun(), ...cycle(run, "c1", "cy1", 0), ...cycle(run, "c2", "cy2", 4)]),
    );
    expect(jsonl.endsWith("\n")).toBe(true);
    const examples = parseLines(jsonl);
    expect(examples).toEqual([
      {
        context: {
          task: "run `a` and run `b`",
          intention: "run `a`",
          acceptance: "a exits 0",
          depth: 1,
          previous_attempts: [],
        },
        action: { type: "COMMAND", content: "true" },
        result: { exit_code: 0, output: "out" },
        judgment: "SUCCESS",
        reflection: null,
      },
      {
        context: {
          task: "run `a` and run `b`",
          intention: "run `b`",
          acceptance: "b exits 0",
          depth: 1,
          previous_attempts: [],
        },
        action: { type: "COMMAND", content: "true" },
        result: { exit_code: 4, output: "out" },
        judgment: "FAILURE",
        reflection: null,
      },
    ]);
  });

  it("carries earlier attempts of the same intention, capped to the most recent", () => {
    const attempts = [0, 1, 2, 3, 4].flatMap((index) =>
      attempt(`cy${index}`, index, `cmd-${index}`, index === 4 ? 0 : 1, `output ${index}`),
    );
    const examples = parseLines(trainingExamples(sequence([...decomposedRun(), ...attempts])));
    expect(examples).toHaveLength(5);
    expect(examples[1]?.context.previous_attempts).toEqual([
      {
        action: { type: "COMMAND", content: "cmd-0" },
        exit_code: 1,
        judgment: "FAILURE",
        reflection: "cmd-0 failed",
      },
    ]);
    const last = examples[4];
    expect(last?.context.previous_attempts).toHaveLength(PREVIOUS_ATTEMPTS_CAP);
    expect(last?.context.previous_attempts.map((previous) => previous.action.content)).toEqual([
      "cmd-1",
      "cmd-2",
      "cmd-3",
    ]);
    expect(last).toMatchObject({ judgment: "SUCCESS", result: { exit_code: 0, output: "output 4" } });
  });

  it("caps long output, keeping its start and its end", () => {
    const output = `START${"x".repeat(10_000)}END`;
    const [example] = parseLines(
      trainingExamples(sequence([...decomposedRun(), ...attempt("cy1", 0, "make", 2, output)])),
    );
    expect(example?.result.output.length).toBeLessThanOrEqual(OUTPUT_CAP);
    expect(example?.result.output.startsWith("START")).toBe(true);
    expect(example?.result.output.endsWith("END")).toBe(true);
    expect(example?.result.output).toContain("characters omitted");
    expect(example?.reflection).toBe("make failed");
  });

  it("skips cycles not yet judged, and uses the error when the action could not run", () => {
    const events: EventInput[] = [
      ...decomposedRun(),
      ...cycle(run, "c1", "cy1", 0).slice(0, 3),
      {
        type: "cycle-started",
        runId: run,
        intentionId: "c2",
        cycleId: "cy2",
        index: 0,
        thought: "t",
        action: { type: "COMMAND", content: "ls", target: null },
      },
      {
        type: "cycle-result",
        runId: run,
        intentionId: "c2",
        cycleId: "cy2",
        exitCode: null,
        output: "",
        timedOut: false,
        error: "sandbox unavailable",
        durationMs: 0,
      },
      {
        type: "cycle-judged",
        runId: run,
        intentionId: "c2",
        cycleId: "cy2",
        judgment: "UNCLEAR",
        judgedBy: "auto",
        reason: "no result",
      },
    ];
    const examples = parseLines(trainingExamples(sequence(events)));
    expect(examples).toHaveLength(1);
    expect(examples[0]).toMatchObject({
      context: { intention: "run `b`" },
      result: { exit_code: null, output: "sandbox unavailable" },
      judgment: "UNCLEAR",
    });
  });

  it("is empty for a session with no judged cycle", () => {
    expect(trainingExamples(sequence(decomposedRun()))).toBe("");
    expect(trainingExamples([])).toBe("");
  });
});
