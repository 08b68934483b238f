import { answerReply, writeAttemptReply } from "./answer-replies";
import { deliveryReply, offersDelivery } from "./delivery-replies";
import { repairFixesSumTest, repairLooksAtSumTest } from "./guard-replies";
import { mcpSumDue, mcpSumReply } from "./mcp-replies";
import { qaReviewReply, SUBMIT_QA } from "./qa-replies";
import {
  backticked,
  type ChatRequest,
  type FakeReply,
  intentionText,
  isReAsk,
  offers,
  type Scenario,
  type ScenarioRule,
  textOf,
} from "./request";
import { adversarialTestReply, rankFilesReply, submitReviewReply } from "./role-replies";
import { generatedTestReply, proposeContractReply, reportIntentReply } from "./understanding-replies";
import { isWarmup, warmupReadsReply, warmupReply } from "./warmup-replies";
import {
  malformedReply,
  planReply,
  plantGitConfigReply,
  readThenActReply,
  reflecting,
  SHELL,
  selectThenWriteReply,
} from "./work-replies";

/**
 * Scripted behaviour for the fake OpenAI-compatible server. A scenario is an ordered list of rules;
 * the first rule whose `match` accepts the request produces the reply. Everything here is pure and
 * depends only on the request, so parallel tests that pick scenarios per request never interfere.
 * The replies live next door, one module per kind of turn (work, answer, QA, warmup, roles,
 * understanding, delivery); the request's shape and readers in request.ts.
 */

const defaultRules: ScenarioRule[] = [
  {
    description: "full mode's Librarian: the listed files the intention names, else the first three",
    match: offers("rank_files"),
    reply: rankFilesReply,
  },
  {
    description: "full mode's Chaos: a shell test that the intention's file is not empty",
    match: offers("propose_adversarial_test"),
    reply: adversarialTestReply,
  },
  {
    description: "full mode's Critic: approve, except every change for a (critic-revise) intention",
    match: offers("submit_review"),
    reply: submitReviewReply,
  },
  {
    description: "intent discovery: report the request's kind, verb, targets and constraints",
    match: offers("report_intent"),
    reply: reportIntentReply,
  },
  {
    description: "contract: a file step's content, or a backticked command's exit code, else no checks",
    match: offers("propose_contract"),
    reply: proposeContractReply,
  },
  {
    description: "warmup (reasoning on): the six reasoning sections, then what comes first",
    match: isWarmup,
    reply: warmupReply,
  },
  {
    description:
      "QA review (submit_qa_report offered): read the diff, then pass, or fail work marked (qa-fail)",
    match: offers(SUBMIT_QA),
    reply: qaReviewReply,
  },
  {
    description:
      "delivery check (submit_delivery offered): DONE iff the request verified, NEEDS_WORK when marked (delivery-needs-work)",
    match: offersDelivery,
    reply: deliveryReply,
  },
  {
    description: "plan: split the task on and/then/also/;",
    match: offers("propose_decomposition"),
    reply: planReply,
  },
  {
    description:
      "act, an intention marked (mcp-sum) while an MCP get-sum tool is offered and its result not yet seen: call it with 2 and 3",
    match: mcpSumDue,
    reply: mcpSumReply,
  },
  {
    description:
      "act: a file step reads the file, then writes or edits it; else run the backticked command, else echo done (with a reflection when asked for reasoning)",
    match: offers(SHELL),
    reply: (request) => reflecting(request, readThenActReply(request)),
  },
  {
    description: "answer path (read-only tools offered): search and read, then answer in streamed text",
    match: offers("fs_search"),
    reply: answerReply,
  },
  {
    description: "anything else: a plain answer",
    match: () => true,
    reply: () => ({
      type: "text",
      text: "This is Arbor's fake model server; it only scripts Arbor's tools.",
    }),
  },
];

const always = (description: string, reply: (request: ChatRequest) => FakeReply): ScenarioRule => ({
  description,
  match: () => true,
  reply,
});

const onFirstAsk = (description: string, reply: (request: ChatRequest) => FakeReply): ScenarioRule => ({
  description,
  match: (request) => !isReAsk(request),
  reply,
});

const DEFAULT_DELAY_MS = 3_000;

/**
 * Model tiers: a model whose name starts with "weak" fails at any intention marked "(hard)" — its act
 * runs a read-only command that exits 2, and asked to decompose it, it splits off the mark — while
 * every other model (and "weak" on unmarked intentions) answers as by default. Part of the default
 * scenario, so end-to-end tests can configure tiers against the shared fake server.
 */
const HARD = "(hard)";
const weakAtHard = (request: ChatRequest) =>
  request.model.startsWith("weak") && intentionText(request).includes(HARD);

const tierRules: ScenarioRule[] = [
  {
    description: "weak model, hard intention, act: a command that fails",
    match: (request) => weakAtHard(request) && offers(SHELL)(request),
    reply: () => ({
      type: "tool-calls",
      calls: [
        {
          name: SHELL,
          arguments: { thought: "Guessing the path.", command: "ls /no-such-path-for-weak-models" },
        },
      ],
    }),
  },
  {
    description: "weak model, hard intention, must decompose: two easy children",
    match: (request) => weakAtHard(request) && offers("cannot_decompose")(request),
    reply: (request) => {
      const easy = intentionText(request).replace(HARD, "").trim().split("\n")[0] ?? "";
      const command = backticked(easy) ?? "true";
      const children = [
        { what: `run \`${command}\``, acceptance: `the command \`${command}\` exits 0` },
        { what: "run `pwd`", acceptance: "the command `pwd` exits 0" },
      ];
      return {
        type: "tool-calls",
        calls: [{ name: "propose_decomposition", arguments: { thought: "Smaller steps.", children } }],
      };
    },
  },
  ...defaultRules,
];

/** Marks the retry after a failed tool (prompts/correct-failed-tool.md). */
const FAILED_TOOL_CORRECTION = "The last attempt failed";
const afterFailedTool = (request: ChatRequest) =>
  request.messages.some(
    (message) => message.role === "user" && textOf(message).includes(FAILED_TOOL_CORRECTION),
  );

/** Misbehave once in the act step (first ask, not the re-ask), then behave as by default. */
const actOnceThen = (name: string, reply: (request: ChatRequest) => FakeReply): Scenario => ({
  name,
  rules: [
    { description: `act, first ask: ${name}`, match: (r) => offers(SHELL)(r) && !isReAsk(r), reply },
    ...defaultRules,
  ],
});

export const SCENARIOS: Record<string, Scenario> = {
  // The regression guard's test project (sum.js and its node:test), see guard-replies.ts.
  "guard-repair-sum": { name: "guard-repair-sum", rules: [repairFixesSumTest, ...defaultRules] },
  "guard-repair-sum-looks": {
    name: "guard-repair-sum-looks",
    rules: [repairLooksAtSumTest, ...defaultRules],
  },
  "empty-then-valid": actOnceThen("empty-then-valid", () => ({ type: "text", text: "" })),
  "asks-for-files-then-valid": actOnceThen("asks-for-files-then-valid", () => ({
    type: "text",
    text: "Could you paste the contents of README.md so I can see what to change?",
  })),
  "failing-tool-then-valid": {
    name: "failing-tool-then-valid",
    rules: [
      {
        description: "act, until told the last attempt failed: a command that fails (exit 2)",
        match: (request) => offers(SHELL)(request) && !afterFailedTool(request),
        reply: () => ({
          type: "tool-calls",
          calls: [
            {
              name: SHELL,
              arguments: { thought: "Guess a path.", command: "ls /no-such-path-for-the-fake" },
            },
          ],
        }),
      },
      ...defaultRules,
    ],
  },
  // Models named weak-… fail at "(hard)" intentions (model tiers); everything else answers as scripted.
  default: { name: "default", rules: tierRules },
  "malformed-then-valid": {
    name: "malformed-then-valid",
    rules: [onFirstAsk("first ask: invalid tool input", malformedReply), ...defaultRules],
  },
  "plants-git-config": {
    name: "plants-git-config",
    rules: [
      {
        description: "act: plant core.fsmonitor in .git/config",
        match: offers(SHELL),
        reply: plantGitConfigReply,
      },
      ...defaultRules,
    ],
  },
  "read-then-write": {
    name: "read-then-write",
    rules: [
      {
        description: "act: read the file named in the step, then write or edit it",
        match: offers(SHELL),
        reply: readThenActReply,
      },
      ...defaultRules,
    ],
  },
  "select-intent-then-write": {
    name: "select-intent-then-write",
    rules: [
      {
        description: "act: select the intent the step names, then write the file it names",
        match: offers(SHELL),
        reply: selectThenWriteReply,
      },
      ...defaultRules,
    ],
  },
  "test-first": {
    name: "test-first",
    rules: [
      {
        description: "contract: a generated test for a file step",
        match: offers("propose_contract"),
        reply: generatedTestReply,
      },
      ...defaultRules,
    ],
  },
  "warmup-reads": {
    name: "warmup-reads",
    rules: [
      {
        description: "warmup: git_status and fs_list, then the sections",
        match: isWarmup,
        reply: warmupReadsReply,
      },
      ...defaultRules,
    ],
  },
  "always-malformed": {
    name: "always-malformed",
    rules: [always("invalid tool input, every time", malformedReply)],
  },
  "text-instead-of-tool": {
    name: "text-instead-of-tool",
    rules: [
      onFirstAsk("first ask: prose instead of a tool call", () => ({
        type: "text",
        text: "Sure! I would just do it.",
      })),
      ...defaultRules,
    ],
  },
  "answer-tries-write": {
    name: "answer-tries-write",
    rules: [
      { description: "answer path: ask for fs_write", match: offers("fs_search"), reply: writeAttemptReply },
      ...defaultRules,
    ],
  },
  "answer-never-ends": {
    name: "answer-never-ends",
    rules: [
      {
        description: "answer path: list the files again, every time (never writes an answer)",
        match: offers("fs_search"),
        reply: () => ({ type: "tool-calls", calls: [{ name: "fs_list", arguments: {} }] }),
      },
      ...defaultRules,
    ],
  },
  "http-500": {
    name: "http-500",
    rules: [
      always("server error", () => ({ type: "http-error", status: 500, message: "The fake model crashed." })),
    ],
  },
  "http-429": {
    name: "http-429",
    rules: [
      always("rate limited, every time", () => ({
        type: "http-error",
        status: 429,
        message: "Rate limit reached for requests.",
      })),
    ],
  },
  hang: {
    name: "hang",
    rules: [
      always("never answers (10 minutes)", () => ({
        type: "delay",
        ms: 600_000,
        reply: { type: "text", text: "too late" },
      })),
    ],
  },
  "http-401": {
    name: "http-401",
    rules: [
      always("bad key", () => ({ type: "http-error", status: 401, message: "Incorrect API key provided." })),
    ],
  },
  slow: {
    name: "slow",
    rules: defaultRules.map((rule) => ({
      ...rule,
      description: `after a delay (x-fake-delay-ms, default ${DEFAULT_DELAY_MS}): ${rule.description}`,
      reply: (request: ChatRequest): FakeReply => ({
        type: "delay",
        ms: Number(request.headers["x-fake-delay-ms"] ?? DEFAULT_DELAY_MS),
        reply: rule.reply(request),
      }),
    })),
  },
};

export function replyFor(scenario: Scenario, request: ChatRequest): FakeReply {
  const rule = scenario.rules.find((candidate) => candidate.match(request));
  if (!rule)
    return {
      type: "http-error",
      status: 400,
      message: `Scenario "${scenario.name}" has no rule for this request`,
    };
  return rule.reply(request);
}
