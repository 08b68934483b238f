import { describe, expect, it } from "vitest";
import type { NextAction } from "@/server/model/actions";
import type { ModelCallRecord } from "@/server/model/call-record";
import type { Review } from "@/server/model/roles/types";
import { twoPhaseConfig } from "@/server/model/tiers/two-phase";
import type { AgentModel } from "@/server/model/types";
import { ofType } from "@/testing/events/events";
import { FakeSandboxProvider, scriptedModel } from "@/testing/harness/fakes";
import { runTask } from "@/testing/harness/riva-harness";

/**
 * Full mode in the live loop, over the in-memory log with scripted models and sandbox: the Librarian
 * ranks and the engine reads for the Artisan; the Critic's "revise" fails a cycle before anyone is
 * asked; a role whose model fails is replaced by the heuristics; simple mode calls no role.
 */

const write: NextAction = {
  thought: "write it",
  tool: "fs.write",
  input: { path: "src/a.ts", content: "x" },
};

const record = (stage: ModelCallRecord["stage"]): ModelCallRecord => ({
  stage,
  modelId: "roles",
  offline: false,
  tokensIn: 10,
  tokensOut: 5,
  latencyMs: 1,
});

function rolesModel(reviews: Review[], options: { librarianFails?: boolean } = {}) {
  const base = scriptedModel({
    plan: () => ({ kind: "atomic", thought: "one step" }),
    nextAction: () => write,
  });
  const seen = { librarian: [] as string[], critic: [] as string[], rankedFiles: [] as string[] };
  const model: AgentModel = {
    ...base,
    id: "roles",
    offline: false,
    nextAction: async (input, signal) => {
      seen.rankedFiles.push(input.rankedFiles ?? "");
      return base.nextAction(input, signal);
    },
    rankFiles: async (input) => {
      seen.librarian.push(input.files.join(","));
      if (options.librarianFails) throw new Error("librarian down");
      const files = [
        { path: "src/a.ts", why: "the file to change" },
        { path: "nowhere.ts", why: "invented" },
      ];
      return { ranking: { files, summary: "one file" }, call: record("discover") };
    },
    critique: async (input) => {
      seen.critic.push(input.change);
      const review = reviews[Math.min(seen.critic.length - 1, reviews.length - 1)] as Review;
      return { review, call: record("verify") };
    },
  };
  return { model, seen };
}

/** The listing finds src/a.ts; its read prints a marker the Artisan's request must contain. */
const sandbox = () =>
  new FakeSandboxProvider((command) => {
    if (command.includes("find . -mindepth")) return { stdout: "f src/a.ts\n" };
    // The scope guard's realpath: the path resolves to itself inside /workspace.
    const real = /^realpath -m -- (\S+)/.exec(command);
    if (real) return { stdout: `${real[1]?.replace(/^'|'$/g, "")}\n` };
    if (command.includes("src/a.ts") && command.includes("cat"))
      return { stdout: "export const MARK = 1;\n" };
    return {};
  });

function tiersFor(model: AgentModel, full: "always" | "off") {
  const config = twoPhaseConfig(model, {
    full,
    simpleIterations: 5,
    fullIterations: 4,
    escalation: "decompose-then-escalate",
  });
  return { config, models: config.tiers.map(() => model) };
}

describe("full mode (Librarian → Artisan → Critic)", () => {
  it("the Critic's revise fails the cycle unasked; its approval lets the change reach the gate", async () => {
    const { model, seen } = rolesModel([
      { verdict: "revise", issues: ["handles no empty input"], summary: "not yet" },
      { verdict: "approve", issues: [], summary: "fine" },
    ]);
    const { events, runId, view } = await runTask({
      task: "write src/a.ts",
      model,
      sandboxes: sandbox(),
      tiers: tiersFor(model, "always"),
    });
    const roles = ofType(events, "role-reported");
    const librarian = roles.filter((report) => report.role === "librarian");
    expect(librarian[0]).toMatchObject({ source: "model", files: [{ path: "src/a.ts", read: true }] });
    expect(librarian[0]?.summary).toContain("1 path not in the workspace left out");
    expect(seen.librarian[0]).toBe("src/a.ts");
    // What the Librarian ranked was read and handed to the Artisan's request.
    expect(seen.rankedFiles[0]).toContain("### src/a.ts (the file to change)");
    const critic = roles.filter((report) => report.role === "critic");
    expect(critic.map((report) => report.verdict)).toEqual(["revise", "approve"]);
    const judged = ofType(events, "cycle-judged");
    expect(judged[0]).toMatchObject({ judgment: "FAILURE", judgedBy: "critic" });
    expect(judged[0]?.reason).toContain("handles no empty input");
    // The approved change went on to the gate and ran; the sent-back one never did.
    expect(judged[1]?.judgedBy).not.toBe("critic");
    const started = ofType(events, "cycle-started");
    expect(started.map((cycle) => cycle.gate?.decision)).toEqual(["deny", "approve"]);
    expect(seen.critic[0]).toContain("+x");
    const roleCalls = ofType(events, "llm-called").filter((call) => call.role !== null);
    expect(roleCalls.map((call) => `${call.role}:${call.stage}`)).toEqual([
      "librarian:discover",
      "critic:verify",
      "librarian:discover",
      "critic:verify",
    ]);
    expect(view.runs[runId]?.tiers?.tiers[0]).toMatchObject({ name: "full", mode: "full" });
    const root = view.runs[runId]?.rootId;
    expect(root && view.intentions[root]?.roles.map((report) => report.role)).toEqual([
      "librarian",
      "critic",
      "librarian",
      "critic",
    ]);
  });

  it("a Librarian whose model fails is replaced by the heuristics, and the failure is logged", async () => {
    const { model } = rolesModel([{ verdict: "approve", issues: [], summary: "ok" }], {
      librarianFails: true,
    });
    const { events } = await runTask({
      task: "write src/a.ts",
      model,
      sandboxes: sandbox(),
      tiers: tiersFor(model, "always"),
    });
    const failed = ofType(events, "llm-called").find((call) => call.error?.includes("librarian down"));
    expect(failed?.stage).toBe("discover");
    const [librarian] = ofType(events, "role-reported");
    expect(librarian).toMatchObject({ role: "librarian", source: "heuristics" });
    expect(librarian?.files.map((file) => file.path)).toEqual(["src/a.ts"]);
  });

  it("simple mode calls no role", async () => {
    const { model, seen } = rolesModel([{ verdict: "revise", issues: ["no"], summary: "no" }]);
    const { events } = await runTask({
      task: "write src/a.ts",
      model,
      sandboxes: sandbox(),
      tiers: tiersFor(model, "off"),
    });
    expect(ofType(events, "role-reported")).toEqual([]);
    expect(seen.critic).toEqual([]);
    expect(seen.rankedFiles.every((text) => text === "")).toBe(true);
  });
});

/** The same tiers with Chaos turned on for each (full) tier. */
function withChaos(tiers: ReturnType<typeof tiersFor>) {
  return {
    ...tiers,
    config: { ...tiers.config, tiers: tiers.config.tiers.map((tier) => ({ ...tier, chaos: true })) },
  };
}

describe("the Chaos role", () => {
  it("on a full tier with chaos, writes its adversarial test first and adds it to the contract", async () => {
    const { model } = rolesModel([{ verdict: "approve", issues: [], summary: "ok" }]);
    const chaotic: AgentModel = {
      ...model,
      adversarialTest: async () => ({
        test: {
          path: "tests/edge.sh",
          content: "test -s src/a.ts\n",
          command: "sh tests/edge.sh",
          attack: "empty file",
        },
        call: record("contract"),
      }),
    };
    const tiers = withChaos(tiersFor(chaotic, "always"));
    const { events } = await runTask({ task: "write src/a.ts", model: chaotic, sandboxes: sandbox(), tiers });
    const chaos = ofType(events, "role-reported").filter((report) => report.role === "chaos");
    expect(chaos).toHaveLength(1);
    expect(chaos[0]).toMatchObject({
      source: "model",
      test: { path: "tests/edge.sh", command: "sh tests/edge.sh" },
    });
    const contract = ofType(events, "contract-built").find((built) => built.source === "chaos");
    expect(contract?.criteria).toContainEqual({
      kind: "GENERATED_TEST_PASSES",
      path: "tests/edge.sh",
      command: "sh tests/edge.sh",
    });
    const [first] = ofType(events, "cycle-started");
    expect(first?.action).toMatchObject({ tool: "fs.write", target: "tests/edge.sh" });
    expect(ofType(events, "llm-called").filter((call) => call.role === "chaos")).toHaveLength(1);
  });

  it("without a model answer, no test is added and the report says why", async () => {
    const { model } = rolesModel([{ verdict: "approve", issues: [], summary: "ok" }]);
    const tiers = withChaos(tiersFor(model, "always"));
    const { events } = await runTask({ task: "write src/a.ts", model, sandboxes: sandbox(), tiers });
    const [chaos] = ofType(events, "role-reported").filter((report) => report.role === "chaos");
    expect(chaos).toMatchObject({ source: "heuristics", test: null });
    expect(ofType(events, "contract-built").some((built) => built.source === "chaos")).toBe(false);
  });
});
