import { createTwoFilesPatch } from "diff";
import { errorMessage } from "@/server/domain/errors";
import type { EventInput, ToolCallBody } from "@/server/domain/events/schema";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { tierIndexOf } from "@/server/domain/session/fold-tiers";
import type { IntentionView } from "@/server/domain/session/view";
import type { ModelCallRecord } from "@/server/model/call-record";
import { critiqueOffline, rankFilesOffline } from "@/server/model/roles/offline-roles";
import type { AdversarialTest, CriticInput, Ranking, Review } from "@/server/model/roles/types";
import type { Role } from "@/server/model/tiers/schema";
import type { AgentModel, ReadPort } from "@/server/model/types";
import { gateCommand } from "@/server/policy/approval/command-gate";
import type { ToolDispatch } from "@/server/tools/dispatch";
import { listWorkspace } from "@/server/tools/workspace-listing";
import { failedCallEvent, llmCalledEvent } from "../decide/run-events";
import { tierAttempts } from "../decide/tiers";
import { describeCall } from "../decide/tool-action";
import { callWithRetries } from "./model-calls";
import type { ReasoningHost } from "./reasoning";

/**
 * Full mode in the live loop (seed 002): on a tier whose mode is `full`, each cycle's Artisan (the
 * act step) is preceded by the Librarian, who ranks the files the work needs (the engine reads the
 * first few and gives them to the Artisan), and its file changes are reviewed by the Critic before
 * the approval gate, so a person is never asked to approve a change the Critic sent back. A role's
 * model that fails is logged and replaced by the offline heuristics: a helper never stops the run.
 */

export interface RolesHost extends ReasoningHost {}

/** Files the Librarian's ranking gets read for the Artisan, and how much of each. */
const READ_FILES = 5;
const FILE_CHARS = 4_000;
const PRIOR_ATTEMPTS_CHARS = 2_000;

export function inFullMode(host: Pick<ReasoningHost, "deps">, intention: IntentionView): boolean {
  return host.deps.tiers?.config.tiers[tierIndexOf(intention)]?.mode === "full";
}

/** The model that plays `role` on the intention's tier: the tier's own unless the config names one. */
export function roleModel(
  host: Pick<ReasoningHost, "deps">,
  intention: IntentionView,
  role: Role,
): AgentModel {
  const index = tierIndexOf(intention);
  const tiers = host.deps.tiers;
  return tiers?.roles?.[index]?.[role] ?? tiers?.models[index] ?? host.deps.model;
}

type Asked<T> = { value: T; source: "model" | "heuristics"; model: AgentModel; events: EventInput[] };

/** One role's call with seed 004's retries; the heuristics answer when there is no call or it failed. */
async function askRole<T>(
  host: RolesHost,
  intention: IntentionView,
  role: Role,
  stage: "discover" | "verify" | "contract",
  ask: ((model: AgentModel) => Promise<{ value: T; call: ModelCallRecord }>) | null,
  heuristics: () => T,
  signal: AbortSignal,
): Promise<Asked<T>> {
  const model = roleModel(host, intention, role);
  if (!ask) return { value: heuristics(), source: "heuristics", model, events: [] };
  const record = { ...host.request(), intentionId: intention.id, stage };
  const asked = await callWithRetries({ ...host.deps, model }, record, signal, () => ask(model));
  if ("value" in asked) {
    const { value, call } = asked.value;
    const logged = llmCalledEvent(
      host.runId,
      intention.id,
      { ...call, role },
      host.deps.priceOf,
      host.request(),
    );
    return { value, source: "model", model, events: [...asked.failedAttempts, logged] };
  }
  const failed = failedCallEvent(record, model, `${role}: ${errorMessage(asked.error)}`);
  return { value: heuristics(), source: "heuristics", model, events: [...asked.failedAttempts, failed] };
}

function reportBase(host: RolesHost, intention: IntentionView, role: Role, asked: Asked<unknown>) {
  return {
    type: "role-reported" as const,
    runId: host.runId,
    intentionId: intention.id,
    cycleIndex: intention.cycles.length,
    role,
    modelId: asked.model.id,
    source: asked.source,
  };
}

/**
 * The Librarian's turn: ranks the listing's files (knowing what this intention already tried), and
 * the first few that exist are read through the read port (each read logged). Returns the files'
 * text for the Artisan's request; empty when nothing was ranked or read.
 */
export async function librarianTurn(
  host: RolesHost,
  intention: IntentionView,
  tools: Pick<ToolDispatch, "run">,
  reads: ReadPort,
  signal: AbortSignal,
): Promise<string> {
  const files = await listWorkspace(tools)
    .then((listed) => listed.files)
    .catch(() => []);
  const tiers = host.deps.tiers;
  const prior = tiers ? tierAttempts(intention, tiers.config).previousAttempts.join("\n\n") : "";
  const run = host.view().runs[host.runId];
  const input = {
    task: run?.task ?? intention.what,
    what: intention.what,
    acceptance: intention.acceptance,
    files,
    priorAttempts: prior.slice(0, PRIOR_ATTEMPTS_CHARS),
    request: host.request(),
  };
  const asked = await askRole<Ranking>(
    host,
    intention,
    "librarian",
    "discover",
    roleAsk(roleModel(host, intention, "librarian"), "rankFiles", (model) =>
      model.rankFiles?.(input, signal).then(({ ranking, call }) => ({ value: ranking, call })),
    ),
    () => rankFilesOffline(input),
    signal,
  );
  const known = new Set(files);
  const ranked = asked.value.files.filter((file) => known.has(file.path));
  const toRead = ranked.slice(0, READ_FILES);
  const sections: string[] = [];
  for (const file of toRead) {
    const text = await reads.run({ tool: "fs.read", input: { path: file.path } });
    sections.push(`### ${file.path} (${file.why || "ranked"})\n\n${text.slice(0, FILE_CHARS)}`);
  }
  const dropped = asked.value.files.length - ranked.length;
  const summary = [
    asked.value.summary || `${ranked.length} file${ranked.length === 1 ? "" : "s"} ranked`,
    dropped > 0 ? `(${dropped} path${dropped === 1 ? "" : "s"} not in the workspace left out)` : "",
  ]
    .filter(Boolean)
    .join(" ");
  await host.append([
    ...asked.events,
    {
      ...reportBase(host, intention, "librarian", asked),
      summary: summary.slice(0, 1_000),
      files: ranked.slice(0, 20).map((file, index) => ({
        path: file.path.slice(0, 600),
        why: file.why.slice(0, 600),
        read: index < toRead.length,
      })),
    },
  ]);
  return sections.join("\n\n");
}

function roleAsk<T>(
  model: AgentModel,
  method: "rankFiles" | "critique" | "adversarialTest",
  ask: (model: AgentModel) => Promise<{ value: T; call: ModelCallRecord }> | undefined,
): ((model: AgentModel) => Promise<{ value: T; call: ModelCallRecord }>) | null {
  if (!model[method]) return null;
  return (chosen) => ask(chosen) ?? Promise.reject(new Error(`${chosen.id} has no ${method}`));
}

const REVIEWED_TOOLS = new Set(["fs.write", "fs.edit", "fs.delete"]);

/** The change as the Critic reads it: a diff for a write, the search/replace of an edit, a delete. */
export function changeForReview(call: ToolCallBody, before: string | null): string {
  const path = typeof call.input.path === "string" ? call.input.path : "?";
  if (call.tool === "fs.write") {
    const after = typeof call.input.content === "string" ? call.input.content : "";
    if (after.trim() === "") return "";
    return createTwoFilesPatch(path, path, before ?? "", after, before === null ? "(new file)" : "", "");
  }
  if (call.tool === "fs.edit") {
    const search = String(call.input.search ?? "");
    const replace = String(call.input.replace ?? "");
    if (search === replace) return "no change";
    return `In ${path}, replace:\n${search}\nwith:\n${replace}`;
  }
  return `delete ${path}${before === null ? " (it does not exist)" : ""}`;
}

/**
 * The Critic's review of a file change, before the gate. Returns the events to log with the cycle
 * and, when the Critic asks for a revision, why (the cycle then fails without running or asking).
 */
export async function criticTurn(
  host: RolesHost,
  intention: IntentionView,
  thought: string,
  call: ToolCallBody,
  before: string | null,
  signal: AbortSignal | undefined,
): Promise<{ events: EventInput[]; revise: string | null } | null> {
  if (!inFullMode(host, intention) || !REVIEWED_TOOLS.has(call.tool)) return null;
  const run = host.view().runs[host.runId];
  const input: CriticInput = {
    task: run?.task ?? intention.what,
    what: intention.what,
    acceptance: intention.acceptance,
    thought,
    action: describeCall(call, 300),
    change: changeForReview(call, before).slice(0, 12_000),
    request: host.request(),
  };
  const asked = await askRole<Review>(
    host,
    intention,
    "critic",
    "verify",
    roleAsk(roleModel(host, intention, "critic"), "critique", (model) =>
      model.critique?.(input, signal).then(({ review, call: record }) => ({ value: review, call: record })),
    ),
    () => critiqueOffline(input),
    signal ?? new AbortController().signal,
  );
  const review = asked.value;
  const report: EventInput = {
    ...reportBase(host, intention, "critic", asked),
    summary: (review.summary || review.verdict).slice(0, 1_000),
    verdict: review.verdict,
    issues: review.issues.map((issue) => issue.slice(0, 600)),
  };
  const revise =
    review.verdict === "revise"
      ? `the Critic asked for a revision: ${review.issues.join("; ") || review.summary || "no reason given"}`
      : null;
  return { events: [...asked.events, report], revise };
}

/** Chaos writes once per stay on a full tier that turns it on: not yet since the intention got there. */
export function chaosDue(host: Pick<ReasoningHost, "deps">, intention: IntentionView): boolean {
  const tier = host.deps.tiers?.config.tiers[tierIndexOf(intention)];
  if (tier?.mode !== "full" || !tier.chaos) return false;
  const since = intention.tier?.since.cycles ?? 0;
  return !intention.roles.some((report) => report.role === "chaos" && report.cycleIndex >= since);
}

/**
 * The Chaos role's turn, on entering a full tier with `chaos: true`: one adversarial test. A test
 * whose command the gate would run unasked is added to the contract (`contract-built`, source chaos,
 * the earlier checks kept) and written as the next cycle, through the approval gate like any write;
 * the intention is then done only when it passes too. Otherwise the report says why none was added.
 */
export async function chaosTurn(
  host: RolesHost,
  intention: IntentionView,
  policy: CheckpointPolicy,
  signal: AbortSignal,
): Promise<void> {
  // A check runs without a click: a test whose command the gate would ask about is left out.
  const runsUnasked = (command: string) => {
    const gate = gateCommand(command, intention.id, policy);
    return gate.decision === "approve" ? null : gate.reason;
  };
  const run = host.view().runs[host.runId];
  const codebase = run?.intent?.codebase;
  const input = {
    task: run?.task ?? intention.what,
    what: intention.what,
    acceptance: intention.acceptance,
    framework: codebase?.testFramework ?? null,
    testCommand: codebase?.testCommand ?? null,
    request: host.request(),
  };
  const asked = await askRole<AdversarialTest | null>(
    host,
    intention,
    "chaos",
    "contract",
    roleAsk(roleModel(host, intention, "chaos"), "adversarialTest", (model) =>
      model.adversarialTest?.(input, signal).then(({ test, call }) => ({ value: test, call })),
    ),
    () => null,
    signal,
  );
  const test = asked.value;
  const refused = test ? runsUnasked(test.command) : null;
  const summary = !test
    ? "no adversarial test: the offline heuristics cannot tell what would break the code"
    : refused
      ? `test left out: \`${test.command}\` would need a person's approval (${refused})`
      : `adversarial test ${test.path}: ${test.attack || "edge cases"}`;
  const added: EventInput[] =
    test && !refused
      ? [
          {
            type: "contract-built",
            runId: host.runId,
            intentionId: intention.id,
            criteria: [
              ...intention.contract,
              { kind: "GENERATED_TEST_PASSES" as const, path: test.path, command: test.command },
            ].slice(-20),
            source: "chaos",
            dropped: [],
            generatedTest: { path: test.path, content: test.content },
          },
        ]
      : [];
  await host.append([
    ...asked.events,
    {
      ...reportBase(host, intention, "chaos", asked),
      summary: summary.slice(0, 1_000),
      test: test
        ? { path: test.path, command: test.command.slice(0, 600), attack: test.attack.slice(0, 600) }
        : null,
    },
    ...added,
  ]);
}
