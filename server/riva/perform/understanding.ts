import type { Criterion } from "@/server/domain/contract/criteria";
import { detectedTestCheck } from "@/server/domain/contract/detected-tests";
import { parseAcceptance } from "@/server/domain/contract/parse-acceptance";
import { requestedCommand } from "@/server/domain/contract/requested-command";
import { errorMessage } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import type { CodebaseIntent } from "@/server/domain/intent/codebase-intent";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { IntentionView } from "@/server/domain/session/view";
import type { NextAction } from "@/server/model/actions";
import type { ModelCallRecord } from "@/server/model/call-record";
import { deriveAcceptance, splitTask } from "@/server/model/heuristics/split-task";
import type { RequestContext } from "@/server/model/request-check";
import type { AgentModel } from "@/server/model/types";
import { gateCommand } from "@/server/policy/approval/command-gate";
import { applyTestRule } from "../decide/generated-test-rule";
import { failedCallEvent } from "../decide/run-events";
import type { RivaDeps } from "../ports";
import type { ModelReader } from "./discovery";
import { callWithRetries } from "./model-calls";

/**
 * Seed 000's understanding steps with the model in them: reading the person's request
 * (IntentDiscoverer) and writing an intention's checks when its acceptance names none
 * (ContractBuilder). Both are optional on the model port; both fall back to the heuristics when the
 * model is offline or fails, so understanding never fails a run — but every call, and every failure,
 * is in the log.
 */
export interface UnderstandingHost {
  readonly deps: Pick<RivaDeps, "model" | "sleep" | "logger">;
  readonly runId: string;
  /** The model serving this intention (model tiers). */
  modelFor(intention: IntentionView): AgentModel;
  request(): RequestContext;
  llmCalled(call: ModelCallRecord, intentionId: string): EventInput;
  checkpoints(): Promise<CheckpointPolicy>;
  append(bodies: EventInput[]): Promise<void>;
}

const MAX_DROPPED_NOTES = 8;

/** The model's reading of the root's request, logged; null (heuristics) when there is no model or it failed. */
export function modelReaderFor(
  host: UnderstandingHost,
  root: IntentionView,
  signal: AbortSignal,
): ModelReader | undefined {
  const model = host.modelFor(root);
  const discover = model.discoverIntent?.bind(model);
  if (!discover) return undefined;
  return async (repoSummary) => {
    const record = { ...host.request(), intentionId: root.id, stage: "discover" as const };
    const outcome = await callWithRetries({ ...host.deps, model }, record, signal, () =>
      discover({ prompt: root.what, repoSummary, request: host.request() }, signal),
    );
    if ("value" in outcome) {
      await host.append([...outcome.failedAttempts, host.llmCalled(outcome.value.call, root.id)]);
      return outcome.value.intent;
    }
    await host.append([
      ...outcome.failedAttempts,
      failedCall(
        host,
        model,
        root.id,
        "discover",
        `${errorMessage(outcome.error)}; the heuristics read the request`,
      ),
    ]);
    return null;
  };
}

export interface ContractOutcome {
  criteria: Criterion[];
  source: "acceptance" | "model" | "request" | "detected-tests";
  /** Why proposed checks were left out (malformed, or a command that would need a person). */
  dropped: string[];
  /** Test first: the test file to write before the work (its check is among `criteria`). */
  generatedTest: { path: string; content: string } | null;
  /** Indexes of `criteria` that are the project's detected tests (a fallback: red first, or nothing). */
  detectedTests?: number[];
}

/** What the contract step knows of the run: the request, and what discovery found in the workspace. */
export interface ContractContext {
  task: string;
  repoSummary?: string | undefined;
  codebase?: CodebaseIntent | null | undefined;
  /** Files the request names (discovery's targets): the detected tests are scoped to theirs. */
  targets?: readonly string[] | undefined;
}

const NONE = { dropped: [], generatedTest: null };

/**
 * The intention's contract: what its acceptance names (seed 000's heuristics), or — when it names
 * nothing checkable and the model can write checks — the model's. A model-written command becomes a
 * check only if the command gate would run it without asking: a check runs without a click, so it
 * must never be a way around the approval gate.
 */
export async function buildContract(
  host: UnderstandingHost,
  intention: IntentionView,
  context: ContractContext,
  signal: AbortSignal,
): Promise<ContractOutcome> {
  const named = await namedContract(host, intention, context, signal);
  if (named.criteria.length > 0) return named;
  // Nothing checkable named: the project's detected tests, scoped to the targets, are the check.
  const detected = detectedTestCheck(context.codebase, context.targets ?? []);
  if (!detected) return named;
  return { ...named, criteria: [detected], source: "detected-tests", detectedTests: [0] };
}

async function namedContract(
  host: UnderstandingHost,
  intention: IntentionView,
  context: ContractContext,
  signal: AbortSignal,
): Promise<ContractOutcome> {
  const parsed = parseAcceptance(intention.acceptance);
  // An intention that is itself a command ("run `make`") is checked by exactly that command.
  const requested = parsed.length === 0 ? requestedCommand(intention.what) : null;
  if (requested !== null)
    return { criteria: [{ kind: "TESTS_PASS", command: requested }], source: "request", ...NONE };
  const model = host.modelFor(intention);
  const build = model.buildContract?.bind(model);
  if (parsed.length > 0) return { criteria: parsed, source: "acceptance", ...NONE };
  if (!build) return fromRequestWords(intention, []);
  const record = { ...host.request(), intentionId: intention.id, stage: "contract" as const };
  const input = {
    task: context.task,
    what: intention.what,
    acceptance: intention.acceptance,
    ...(context.repoSummary ? { repoSummary: context.repoSummary } : {}),
    request: host.request(),
  };
  const outcome = await callWithRetries({ ...host.deps, model }, record, signal, () => build(input, signal));
  if (!("value" in outcome)) {
    const why = `${errorMessage(outcome.error)}; the action's exit code is the only check`;
    await host.append([...outcome.failedAttempts, failedCall(host, model, intention.id, "contract", why)]);
    return fromRequestWords(intention, []);
  }
  await host.append([...outcome.failedAttempts, host.llmCalled(outcome.value.call, intention.id)]);
  const policy = await host.checkpoints();
  const proposed = outcome.value.contract;
  const criteria: Criterion[] = [];
  const dropped = [...proposed.dropped];
  // A check runs without a click: a command the gate would ask about is no check.
  const runsUnasked = (command: string) => {
    const gate = gateCommand(command, intention.id, policy);
    if (gate.decision !== "approve")
      dropped.push(`\`${command}\` would need a person's approval (${gate.reason})`);
    return gate.decision === "approve";
  };
  for (const criterion of proposed.criteria) {
    if (criterion.kind !== "TESTS_PASS" || runsUnasked(criterion.command)) criteria.push(criterion);
  }
  let generatedTest: ContractOutcome["generatedTest"] = null;
  // Issue #4: only when no test exists for the target, not for Rust, run by a command scoped to it.
  const ruled = proposed.generatedTest
    ? applyTestRule(proposed.generatedTest, {
        framework: context.codebase?.testFramework ?? null,
        testFiles: context.codebase?.testFiles ?? [],
      })
    : null;
  if (ruled && "dropped" in ruled) dropped.push(ruled.dropped);
  const test = ruled && "kept" in ruled ? ruled.kept : null;
  if (test && runsUnasked(test.command)) {
    criteria.push({ kind: "GENERATED_TEST_PASSES", path: test.path, command: test.command });
    generatedTest = { path: test.path, content: test.content };
  }
  if (criteria.length === 0) return fromRequestWords(intention, dropped.slice(0, MAX_DROPPED_NOTES));
  return { criteria, source: "model", dropped: dropped.slice(0, MAX_DROPPED_NOTES), generatedTest };
}

/**
 * No check from the acceptance or the model: the checks the intention's own words name ("create
 * `a.txt` containing `hi`" → a.txt contains "hi"), read with the offline heuristics. None at all: the
 * contract stays empty, and the intention cannot be verified (no check — not verified).
 */
function fromRequestWords(intention: Pick<IntentionView, "what">, dropped: string[]): ContractOutcome {
  // A compound request ("run `a` and then run `b`") is checked by its children, not by its first part.
  const single = splitTask(intention.what).length === 1;
  const criteria = single ? parseAcceptance(deriveAcceptance(intention.what)) : [];
  return { criteria, source: criteria.length > 0 ? "request" : "acceptance", dropped, generatedTest: null };
}

/**
 * Test first: an intention whose contract carries a generated test begins by writing it — a cycle
 * like any other (the gate asks a person to approve the file unless a pre-approval covers it), with
 * no model call, before the model's first action.
 */
export function testFirstAction(intention: IntentionView): NextAction | null {
  const test = intention.contractBy?.generatedTest;
  if (!test || intention.cycles.length !== test.atCycle) return null;
  return {
    thought: `Test first: write the contract's generated test ${test.path} before the work, so its check can tell when the work is done.`,
    tool: "fs.write",
    input: { path: test.path, content: test.content },
  };
}

/** The `contract-built` event of an outcome; none when nothing checkable was found. */
export function contractEvents(
  runId: string,
  intention: IntentionView,
  outcome: ContractOutcome,
): EventInput[] {
  if (outcome.criteria.length === 0 && outcome.dropped.length === 0) return [];
  return [
    {
      type: "contract-built",
      runId,
      intentionId: intention.id,
      criteria: outcome.criteria,
      source: outcome.source,
      dropped: outcome.dropped,
      generatedTest: outcome.generatedTest,
      ...(outcome.detectedTests?.length ? { detectedTests: outcome.detectedTests } : {}),
    },
  ];
}

function failedCall(
  host: UnderstandingHost,
  model: AgentModel,
  intentionId: string,
  stage: "discover" | "contract",
  error: string,
): EventInput {
  return failedCallEvent({ ...host.request(), intentionId, stage }, model, error);
}
