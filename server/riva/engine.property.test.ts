import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardVerdict } from "@/server/domain/contract/regression-guard";
import { requestedCommand } from "@/server/domain/contract/requested-command";
import type { CheckpointAnswerInput } from "@/server/domain/events/checkpoint-schema";
import type { CheckpointPolicyInput } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import type { ApprovalView, IntentionView, SessionView } from "@/server/domain/session/view";
import { JUDGMENTS } from "@/server/domain/vocabulary/session";
import type { NextAction, Plan } from "@/server/model/actions";
import { FakeSandboxProvider, scriptedModel } from "@/testing/harness/fakes";
import { type Answer, runTask } from "@/testing/harness/riva-harness";

/**
 * Randomly scripted worlds: a model that answers with anything (malformed or empty plans, 0–9
 * children, exceptions, endless retries) and a sandbox that exits with anything or throws, and a
 * person who approves, edits or rejects at random, and answers the judgment questions and intention
 * budgets with any verdict or choice, and a server that dies (`kill -9`) at random moments and is
 * restarted over the same log. Whatever happens, the run must end within its
 * limits, leave no intention ACTIVE, keep the tree's invariants, and replay from its log to the same state.
 */

const child = fc.record({
  what: fc.string({ maxLength: 30 }).map((text) => `step ${text}`),
  acceptance: fc.constantFrom("exits 0", "", "tests pass"),
});
const planAnswer: fc.Arbitrary<Plan | Error> = fc.oneof(
  {
    arbitrary: fc
      .array(child, { minLength: 2, maxLength: 5 })
      .map((children): Plan => ({ kind: "decompose", thought: "split", children })),
    weight: 6,
  },
  {
    arbitrary: fc
      .array(child, { minLength: 0, maxLength: 9 })
      .map((children): Plan => ({ kind: "decompose", thought: "odd", children })),
    weight: 1,
  },
  { arbitrary: fc.constant<Plan>({ kind: "direct", thought: "" }), weight: 2 },
  { arbitrary: fc.constant<Plan>({ kind: "atomic", thought: "no" }), weight: 1 },
  { arbitrary: fc.constant(new Error("model output did not match the schema")), weight: 1 },
);
const actionAnswer: fc.Arbitrary<NextAction | { thought: string; command: string } | Error> = fc.oneof(
  {
    arbitrary: fc.string({ maxLength: 12 }).map((command) => ({ thought: "", command: command || "true" })),
    weight: 8,
  },
  { arbitrary: fc.constant(new Error("model unreachable")), weight: 1 },
);
const execAnswer = fc.oneof(
  {
    arbitrary: fc.integer({ min: 0, max: 3 }).map((exitCode) => ({ exitCode, stdout: `exit ${exitCode}` })),
    weight: 8,
  },
  { arbitrary: fc.constant({ exitCode: 124, timedOut: true }), weight: 1 },
  { arbitrary: fc.constant(new Error("sandbox exploded")), weight: 1 },
);
const personAnswer = fc.oneof(
  { arbitrary: fc.constant<Answer>({ decision: "approved" }), weight: 6 },
  { arbitrary: fc.constant<Answer>({ decision: "rejected", reason: "no" }), weight: 1 },
  {
    arbitrary: fc
      .array(child, { minLength: 1, maxLength: 5 })
      .map((children): Answer => ({ decision: "approved", children })),
    weight: 2,
  },
  // A person's edit of a command before approving it (issue #15: an edit never inherits a check).
  {
    arbitrary: fc
      .constantFrom("x", "true", "ls", "edited && touch ok")
      .map((command): Answer => ({ decision: "approved", command })),
    weight: 2,
  },
);
const checkpoints = fc.constantFrom<CheckpointPolicyInput>(
  { commands: "never-ask" },
  {},
  { commands: "ask-always", decompositions: "auto" },
  { commands: "never-ask", denyCommands: [{ program: "rm", args: [] }] },
  { commands: "never-ask", judgeAction: "ask", verifyIntegration: "ask", reviewReflection: "ask" },
  { commands: "never-ask", decompositions: "auto", judgeAction: "ask" },
  { commands: "ask-unlisted", verifyIntegration: "ask", reviewReflection: "ask" },
);
/** A person's verdict or choice on a judgment question or an intention's budget. */
const verdict = fc.record({
  judgment: fc.constantFrom(...JUDGMENTS),
  status: fc.constantFrom("VERIFIED" as const, "FAILED" as const),
  reflection: fc.constantFrom<string | null>(null, "try again differently", "decompose it"),
  decompose: fc.boolean(),
  choice: fc.constantFrom("grant" as const, "decompose" as const, "stop" as const),
});
type Verdict = typeof verdict extends fc.Arbitrary<infer T> ? T : never;

function checkpointAnswer(approval: ApprovalView, view: SessionView, pick: Verdict): Answer | null {
  const proposal = approval.proposal;
  let answer: CheckpointAnswerInput;
  if (proposal?.question === "judge_action") answer = { question: "judge_action", judgment: pick.judgment };
  else if (proposal?.question === "verify_integration")
    answer = { question: "verify_integration", status: pick.status };
  else if (proposal?.question === "review_reflection")
    answer = {
      question: "review_reflection",
      reflection: pick.reflection ?? proposal.reflection,
      decompose: pick.decompose,
    };
  else if (proposal?.question === "intention_budget") {
    const decomposed = (view.intentions[approval.intentionId]?.childIds.length ?? 0) > 0;
    answer = {
      question: "intention_budget",
      choice: decomposed && pick.choice === "decompose" ? "grant" : pick.choice,
    };
  } else return null;
  return { decision: "approved", answer };
}

const world = fc.record({
  checkpoints,
  task: fc.constantFrom(
    "run `a` and then run `b`",
    "run `x`",
    "add a login page",
    "a; b; c; d; e; f",
    // A root with a file check of its own: with a test script, the regression guard watches it.
    "replace `a + b` with `a - b` in `sum.js`",
  ),
  plans: fc.array(planAnswer, { minLength: 1, maxLength: 12 }),
  actions: fc.array(actionAnswer, { minLength: 1, maxLength: 12 }),
  execs: fc.array(execAnswer, { minLength: 1, maxLength: 12 }),
  answers: fc.array(personAnswer, { minLength: 1, maxLength: 8 }),
  verdicts: fc.array(verdict, { minLength: 1, maxLength: 8 }),
  budget: fc.option(
    fc.record({
      maxCostUsd: fc.constantFrom(null, 0.02, 0.05),
      maxTokens: fc.constantFrom(null, 40, 100),
    }),
  ),
  // A project with a test script: discovery detects `npm test`, and the regression guard runs.
  withTests: fc.boolean(),
  // Restarts (issue #15): the server dies after this many appends of each life; a new one resumes.
  crashes: fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 3 }),
  limits: fc.record({
    maxDepth: fc.integer({ min: 0, max: 4 }),
    maxCyclesPerIntention: fc.integer({ min: 1, max: 5 }),
    maxIterations: fc.integer({ min: 1, max: 40 }),
  }),
});

function checkInvariants(view: SessionView, runId: string, limits: typeof DEFAULT_LIMITS) {
  const run = view.runs[runId];
  expect(run?.status).not.toBe("RUNNING");
  const all = Object.values(view.intentions);
  expect(all.filter((intention) => intention.status === "ACTIVE")).toEqual([]);
  // A cycle cut off by a restart is not an attempt: it counts for no limit (fold.ts, `interrupted`).
  const attempts = (intention: IntentionView) =>
    intention.cycles.filter((cycle) => !cycle.interrupted).length;
  const cycles = all.reduce((sum, intention) => sum + attempts(intention), 0);
  expect(cycles).toBeLessThanOrEqual(limits.maxIterations);
  for (const intention of all) {
    expect(attempts(intention)).toBeLessThanOrEqual(limits.maxCyclesPerIntention);
    expect(intention.depth).toBeLessThanOrEqual(limits.maxDepth + 1);
    expect(intention.childIds.length).toBeLessThanOrEqual(5);
    const children = intention.childIds.map((id) => view.intentions[id]);
    for (const kid of children) expect(kid?.depth).toBe(intention.depth + 1);
    if (intention.status === "VERIFIED" && children.length > 0) {
      expect(children.every((kid) => kid?.status === "VERIFIED")).toBe(true);
    }
    if (children.some((kid) => kid?.status === "FAILED")) expect(intention.status).toBe("FAILED");
    for (const cycle of intention.cycles) expect(cycle.judgment).not.toBeNull();
  }
  for (const intention of all) if (intention.status === "VERIFIED") expectEvidenceHappened(view, intention);
  const root = run?.rootId ? view.intentions[run.rootId] : undefined;
  if (run?.status === "VERIFIED") expect(root?.status).toBe("VERIFIED");
  if (run?.status === "FAILED") expect(root?.status).not.toBe("VERIFIED");
  // The regression guard: never more repairs than recorded, and a VERIFIED root rests on its latest run.
  const guard = run?.guard;
  if (guard) {
    expect(guard.repairs.length).toBeLessThanOrEqual(guard.repairsAllowed);
    expect(guard.repairs.length).toBeLessThanOrEqual(guard.afters.length);
    if (root?.status === "VERIFIED" && guard.before && guard.before.couldNotRun === undefined) {
      expect(guard.afters.length).toBe(guard.repairs.length + 1);
      const latest = guard.afters.at(-1);
      if (latest) expect(guardVerdict(guard.command, guard.before, latest).kind).not.toBe("regression");
    }
  }
}

/** Intent discovery's listing and package.json read, answered as a project with a test script has them. */
function projectWithTests(command: string): { exitCode: number; stdout: string } | null {
  if (command.startsWith("if [ ! -e /workspace ]"))
    return { exitCode: 0, stdout: "f package.json\nf test/a.test.js\n" };
  if (command.startsWith("realpath -m -- /workspace/package.json"))
    return { exitCode: 0, stdout: "/workspace/package.json\n" };
  if (command.startsWith("if [ -d /workspace/package.json ]"))
    return { exitCode: 0, stdout: '{"scripts":{"test":"node --test"}}\n' };
  return null;
}

const PEOPLE_ARE_NOT = new Set(["auto", "policy", "critic"]);

/**
 * Issue #15: a VERIFIED node names a defined kind of evidence, and that evidence is in the log: a check
 * red at the baseline and green after; the requested command itself exiting 0 as a check; a check that
 * passed after the work; a named person's verdict; for a parent, children that all carry evidence.
 */
function expectEvidenceHappened(view: SessionView, intention: IntentionView) {
  const kind = intention.evidence;
  expect(kind, `VERIFIED "${intention.what}" without a kind of evidence`).toBeDefined();
  if (intention.childIds.length > 0) {
    for (const id of intention.childIds) expect(view.intentions[id]?.evidence).toBeDefined();
    return;
  }
  const passedChecks = intention.cycles.flatMap((cycle) =>
    (cycle.checks ?? []).map((check, index) => ({ check, index })).filter(({ check }) => check.passed),
  );
  switch (kind) {
    case "red-to-green": {
      const red = (intention.baseline?.results ?? []).filter(
        (entry) => !entry.result.passed && entry.result.couldNotRun === undefined,
      );
      expect(red.some((entry) => passedChecks.some(({ index }) => index === entry.index))).toBe(true);
      break;
    }
    case "ran-as-requested": {
      const requested = requestedCommand(intention.what);
      expect(requested).not.toBeNull();
      expect(
        passedChecks.some(
          ({ check }) => check.criterion.kind === "TESTS_PASS" && check.criterion.command === requested,
        ),
      ).toBe(true);
      break;
    }
    case "green-after-no-baseline":
      expect(passedChecks.length).toBeGreaterThan(0);
      break;
    case "accepted-by-person":
      expect(
        intention.cycles.some(
          (cycle) =>
            cycle.judgment === "SUCCESS" && cycle.judgedBy !== null && !PEOPLE_ARE_NOT.has(cycle.judgedBy),
        ) || intention.acceptedBy !== undefined,
      ).toBe(true);
      break;
  }
}

describe("RivaEngine under random scripts", () => {
  it("always terminates within its limits with the tree's invariants intact, and replays to the same state, across restarts", async () => {
    let restartsSeen = 0;
    let interruptedSeen = 0;
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const limits = { ...DEFAULT_LIMITS, ...w.limits };
        const at = <T>(list: T[], index: number) => list[index % list.length] as T;
        const model = scriptedModel({
          plan: (_, count) => at(w.plans, count),
          // Past the script, the model keeps answering: retries would go on forever without limits.
          nextAction: (_, count) => at(w.actions, count),
        });
        const sandboxes = new FakeSandboxProvider(
          (command, count) => (w.withTests ? projectWithTests(command) : null) ?? at(w.execs, count),
        );
        let asked = 0;
        let judged = 0;
        const { view, events, runId, restarts } = await runTask({
          task: w.task,
          model,
          sandboxes,
          limits,
          checkpoints: w.checkpoints,
          budget: w.budget ?? undefined,
          crashAfterAppends: w.crashes,
          answer: (approval, view) =>
            checkpointAnswer(approval, view, at(w.verdicts, judged++)) ?? at(w.answers, asked++),
        });
        // Nothing ran that the gate or a person did not let through, and no denied program ever ran.
        const allowed = Object.values(view.intentions).flatMap((intention) =>
          intention.cycles
            .filter((cycle) => cycle.gate?.decision === "approve")
            .map((cycle) => cycle.action.content),
        );
        // Contract checks are tool calls of their own through the same door (issue #15): the ones it ran.
        for (const event of events)
          if (
            event.body.type === "check-ran" &&
            (event.body.status === "ok" || event.body.status === "failed")
          )
            allowed.push(event.body.command);
        for (const command of sandboxes.actions) expect(allowed).toContain(command);
        if ("denyCommands" in w.checkpoints)
          expect(sandboxes.actions.filter((command) => /\brm\b/.test(command))).toEqual([]);
        checkInvariants(view, runId, limits);
        restartsSeen += restarts;
        interruptedSeen += Object.values(view.intentions)
          .flatMap((i) => i.cycles)
          .filter((c) => c.interrupted).length;
        expect(foldEvents(structuredClone(events))).toEqual(view);
        expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      }),
      { numRuns: 200 },
    );
    // The restarts happened, and some cut an action off (not only between steps).
    expect(restartsSeen).toBeGreaterThan(0);
    expect(interruptedSeen).toBeGreaterThan(0);
  }, 120_000);
});
