import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isReadOnlyTool,
  READ_ONLY_TOOLS,
  SERVER_ONLY_TOOLS,
  TOOL_NAMES,
  type ToolName,
} from "@/server/domain/tools/catalogue";
import { REASONING_SWITCHES, STAGES, type Stage, USER_MODES } from "@/server/domain/vocabulary/stages";
import { type StagePolicy, stagePolicy, stagesFor } from "./policy";

const R = READ_ONLY_TOOLS;
/** Every tool a model may get: setup.run is the server's own (never offered in any stage). */
const ALL = TOOL_NAMES.filter((name) => !SERVER_ONLY_TOOLS.includes(name));
const SHELL: readonly ToolName[] = [...READ_ONLY_TOOLS, "shell.exec"];
const NONE: readonly ToolName[] = [];
const DENY = null;

type Expected = [allowed: readonly ToolName[] | null, lastPrompt?: string];

/**
 * Every cell of stage × mode × reasoning, written out by hand so a change to the policy shows up as a
 * diff here. `null` means the stage never runs in that cell; otherwise the tools and the last prompt.
 */
const TABLE: Record<Stage, Record<"agent-on" | "agent-off" | "chat-on" | "chat-off", Expected>> = {
  warmup: {
    // Seed 001 §4.1's research: the warmup reads (capped at 4 in reasoning-step.ts), it never writes.
    "agent-on": [R, "reasoning-macro"],
    "agent-off": [DENY],
    "chat-on": [DENY],
    "chat-off": [DENY],
  },
  discover: {
    "agent-on": [R, "reasoning-micro"],
    "agent-off": [R, "stage-discover"],
    "chat-on": [R, "reasoning-micro"],
    "chat-off": [R, "stage-discover"],
  },
  contract: {
    "agent-on": [R, "reasoning-micro"],
    "agent-off": [R, "stage-contract"],
    "chat-on": [DENY],
    "chat-off": [DENY],
  },
  act: {
    "agent-on": [ALL, "reasoning-micro"],
    "agent-off": [ALL, "stage-act"],
    "chat-on": [DENY],
    "chat-off": [DENY],
  },
  micro_step: {
    "agent-on": [ALL, "reasoning-micro"],
    "agent-off": [ALL, "stage-micro-step"],
    "chat-on": [DENY],
    "chat-off": [DENY],
  },
  verify: {
    "agent-on": [SHELL, "reasoning-micro"],
    "agent-off": [SHELL, "stage-verify"],
    "chat-on": [DENY],
    "chat-off": [DENY],
  },
  decompose: {
    "agent-on": [R, "reasoning-micro"],
    "agent-off": [R, "stage-decompose"],
    "chat-on": [DENY],
    "chat-off": [DENY],
  },
  reflect: {
    "agent-on": [R, "reasoning-micro"],
    "agent-off": [R, "stage-reflect"],
    "chat-on": [DENY],
    "chat-off": [DENY],
  },
  delivery_check: {
    "agent-on": [NONE, "reasoning-micro"],
    "agent-off": [NONE, "stage-delivery-check"],
    "chat-on": [NONE, "reasoning-micro"],
    "chat-off": [NONE, "stage-delivery-check"],
  },
  qa_review: {
    "agent-on": [R, "reasoning-micro"],
    "agent-off": [R, "stage-qa-review"],
    "chat-on": [R, "reasoning-micro"],
    "chat-off": [R, "stage-qa-review"],
  },
};

const cells = STAGES.flatMap((stage) =>
  USER_MODES.flatMap((mode) => REASONING_SWITCHES.map((reasoning) => ({ stage, mode, reasoning }))),
);

describe("stagePolicy, every cell", () => {
  it("covers 10 stages × 2 modes × 2 reasoning switches", () => {
    expect(cells).toHaveLength(40);
  });

  it.each(cells)("$stage / $mode / reasoning $reasoning", ({ stage, mode, reasoning }) => {
    const [tools, lastPrompt] = TABLE[stage][`${mode}-${reasoning}`];
    const policy = stagePolicy(stage, mode, reasoning);
    expect(policy).toMatchObject({ stage, mode, reasoning });
    if (tools === null) {
      expect(policy).toMatchObject({ allowed: false, tools: [], prompts: [], reasoningRequired: false });
      expect(policy.reason).toMatch(new RegExp(stage));
      return;
    }
    expect(policy.allowed).toBe(true);
    expect(policy.reason).toBeUndefined();
    expect(policy.tools).toEqual([...tools]);
    expect(policy.reasoningRequired).toBe(reasoning === "on");
    const base = ["base-system", "project-context", `mode-${mode}`, `stage-${stage.replaceAll("_", "-")}`];
    expect(policy.prompts).toEqual(reasoning === "on" ? [...base, lastPrompt] : base);
  });
});

const anyCell = fc.record({
  stage: fc.constantFrom(...STAGES),
  mode: fc.constantFrom(...USER_MODES),
  reasoning: fc.constantFrom(...REASONING_SWITCHES),
});

function mutating(policy: StagePolicy): ToolName[] {
  return policy.tools.filter((tool) => !isReadOnlyTool(tool));
}

describe("stagePolicy, properties", () => {
  it("never gives Chat mode a tool outside the read-only subset", () => {
    fc.assert(
      fc.property(anyCell, ({ stage, reasoning }) => {
        expect(mutating(stagePolicy(stage, "chat", reasoning))).toEqual([]);
      }),
    );
  });

  it("is deterministic and does not depend on call order", () => {
    fc.assert(
      fc.property(anyCell, anyCell, (a, b) => {
        const first = stagePolicy(a.stage, a.mode, a.reasoning);
        stagePolicy(b.stage, b.mode, b.reasoning);
        expect(stagePolicy(a.stage, a.mode, a.reasoning)).toEqual(first);
      }),
    );
  });

  it("puts a reasoning prompt in iff the user's switch is on (for stages that run)", () => {
    fc.assert(
      fc.property(anyCell, ({ stage, mode, reasoning }) => {
        const policy = stagePolicy(stage, mode, reasoning);
        const hasReasoning = policy.prompts.some((name) => name.startsWith("reasoning-"));
        expect(hasReasoning).toBe(policy.allowed && reasoning === "on");
      }),
    );
  });

  it("keeps QA and delivery from ever writing (QA is advisory, delivery only judges)", () => {
    for (const mode of USER_MODES) {
      for (const reasoning of REASONING_SWITCHES) {
        expect(mutating(stagePolicy("qa_review", mode, reasoning))).toEqual([]);
        expect(stagePolicy("delivery_check", mode, reasoning).tools).toEqual([]);
      }
    }
  });
});

describe("stagesFor", () => {
  it("lists the loop's stages for Agent and the question-answering ones for Chat", () => {
    expect(stagesFor("agent", "off")).toEqual(STAGES.filter((stage) => stage !== "warmup"));
    expect(stagesFor("agent", "on")).toEqual([...STAGES]);
    expect(stagesFor("chat", "on")).toEqual(["discover", "delivery_check", "qa_review"]);
    expect(stagesFor("chat", "off")).toEqual(["discover", "delivery_check", "qa_review"]);
  });
});
