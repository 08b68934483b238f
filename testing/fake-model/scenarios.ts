import { deliveryReply, offersDelivery } from "./delivery-replies";
import { adversarialTestReply, rankFilesReply, submitReviewReply } from "./role-replies";
import { generatedTestReply, proposeContractReply, reportIntentReply } from "./understanding-replies";
import { warmupReadsReply } from "./warmup-replies";

/**
 * Scripted behaviour for the fake OpenAI-compatible server. A scenario is an ordered list of rules;
 * the first rule whose `match` accepts the request produces the reply. Everything here is pure and
 * depends only on the request, so parallel tests that pick scenarios per request never interfere.
 */

export interface ChatMessage {
  role: string;
  content?: unknown;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Names of the function tools offered, in request order. */
  toolNames: string[];
  stream: boolean;
  headers: Record<string, string | undefined>;
}

/** `arguments` that are a string are sent as-is, so a rule can send JSON that does not parse. */
export interface FakeToolCall {
  name: string;
  arguments: unknown;
}

export type FakeReply =
  /** `chunkDelayMs`: when streamed, wait this long between pieces (so a page can see it grow). */
  | { type: "text"; text: string; chunkDelayMs?: number }
  /** `text`: written next to the calls (with reasoning on, a model's reflection). */
  | { type: "tool-calls"; calls: FakeToolCall[]; text?: string }
  | { type: "http-error"; status: number; message: string }
  | { type: "delay"; ms: number; reply: FakeReply };

export interface ScenarioRule {
  description: string;
  match(request: ChatRequest): boolean;
  reply(request: ChatRequest): FakeReply;
}

export interface Scenario {
  name: string;
  rules: ScenarioRule[];
}

export function textOf(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (!Array.isArray(message.content)) return "";
  return message.content
    .map((part: unknown) =>
      typeof part === "object" && part !== null && "text" in part && typeof part.text === "string"
        ? part.text
        : "",
    )
    .join("");
}

function userTexts(request: ChatRequest): string[] {
  return request.messages.filter((message) => message.role === "user").map(textOf);
}

/** The intention is the first user message; later user messages are corrective re-asks. */
export function intentionText(request: ChatRequest): string {
  return userTexts(request)[0] ?? "";
}

export function isReAsk(request: ChatRequest): boolean {
  return userTexts(request).length > 1;
}

function restore(text: string, spans: readonly string[]): string {
  let result = text;
  while (/\uE000\d+\uE000/.test(result)) {
    result = result.replace(/\uE000(\d+)\uE000/g, (_, index: string) => spans[Number(index)] ?? "");
  }
  return result;
}

const offers = (name: string) => (request: ChatRequest) => request.toolNames.includes(name);

export function backticked(text: string): string | undefined {
  return /`([^`\n]+)`/.exec(text)?.[1]?.trim() || undefined;
}

/**
 * A deliberately simple splitter, independent of the offline model's, on ";", newlines, and/then/also.
 * A `{…}` group is kept whole (and unwrapped), so tests can script a nested decomposition:
 * "run `a` and {run `b` and run `c`}" splits into "run `a`" and the compound "run `b` and run `c`".
 */
export function splitSteps(text: string): string[] {
  const spans: string[] = [];
  const masked = text
    .replace(/`[^`\n]*`/g, (span) => `\uE000${spans.push(span) - 1}\uE000`)
    .replace(/\{([^{}]*)\}/g, (_, inner: string) => `\uE000${spans.push(inner.trim()) - 1}\uE000`);
  const steps = masked
    .split(/\s*;\s*|\n+|,?\s+(?:and\s+then|and|then|also)\s+/i)
    .map((step) => restore(step, spans))
    .map((step) => step.trim().replace(/[.\s]+$/, ""))
    .filter((step) => step !== "");
  return steps.length > 5 ? [...steps.slice(0, 4), steps.slice(4).join("; ")] : steps;
}

function planReply(request: ChatRequest): FakeReply {
  const steps = splitSteps(intentionText(request));
  if (steps.length < 2 && offers("cannot_decompose")(request)) {
    const reason = "This is one indivisible step; splitting it would only repeat it.";
    return { type: "tool-calls", calls: [{ name: "cannot_decompose", arguments: { reason } }] };
  }
  if (steps.length < 2) {
    return {
      type: "tool-calls",
      calls: [{ name: "work_directly", arguments: { thought: "One step: run it." } }],
    };
  }
  const children = steps.map((what) => {
    const file = fileStep(what);
    if (file)
      return {
        what,
        acceptance: `the file \`${file.path}\` contains \`${(file.kind === "write" ? file.content : file.replace).trim()}\``,
      };
    const command = backticked(what);
    // A step that names a file or folder "in `…`" or "to `…`" owns it (the optional owned_scope field).
    const place = /\b(?:in|to|under) `([\w./*-]+)`/.exec(what)?.[1];
    return {
      what,
      acceptance: command ? `the command \`${command}\` exits 0` : "the step completes without error",
      ...(place ? { owned_scope: [place.endsWith("/") ? `${place}**` : place] } : {}),
    };
  });
  const thought = `The task has ${children.length} steps; each is checked on its own.`;
  return { type: "tool-calls", calls: [{ name: "propose_decomposition", arguments: { thought, children } }] };
}

/** The act step's shell tool (registry `shell.exec`, offered under its function name). */
const SHELL = "shell_exec";

function actReply(request: ChatRequest): FakeReply {
  const command = backticked(intentionText(request)) ?? "echo done";
  return {
    type: "tool-calls",
    calls: [{ name: SHELL, arguments: { thought: `Run ${command}.`, command } }],
  };
}

/** An explicit file step, in the fake's own words (independent of the offline model's heuristics). */
type FileStep =
  | { kind: "write"; path: string; content: string }
  | { kind: "edit"; path: string; search: string; replace: string };

export function fileStep(text: string): FileStep | undefined {
  const write = /\bcreate\s+`([^`]+)`\s+containing\s+`([^`]*)`/i.exec(text);
  if (write) return { kind: "write", path: write[1] ?? "", content: `${write[2] ?? ""}\n` };
  const edit = /\breplace\s+`([^`]+)`\s+with\s+`([^`]*)`\s+in\s+`([^`]+)`/i.exec(text);
  if (edit) return { kind: "edit", path: edit[3] ?? "", search: edit[1] ?? "", replace: edit[2] ?? "" };
  return undefined;
}

/** Tool results sent back in this turn: OpenAI's `tool` messages, Anthropic's `tool_result` blocks. */
export function toolResultCount(request: ChatRequest): number {
  return request.messages.filter(
    (message) =>
      message.role === "tool" ||
      (Array.isArray(message.content) &&
        message.content.some(
          (part: unknown) =>
            typeof part === "object" && part !== null && "type" in part && part.type === "tool_result",
        )),
  ).length;
}

/**
 * Like a careful model: read the file first (its result comes back in the same turn), then write or
 * edit it. A step that is not a file step is run as a command.
 */
function readThenActReply(request: ChatRequest): FakeReply {
  const step = fileStep(intentionText(request));
  if (!step) return actReply(request);
  if (toolResultCount(request) === 0) {
    const thought = `Read ${step.path} before changing it.`;
    return { type: "tool-calls", calls: [{ name: "fs_read", arguments: { thought, path: step.path } }] };
  }
  if (step.kind === "write") {
    const thought = `Write ${step.path}.`;
    const args = { thought, path: step.path, content: step.content };
    return { type: "tool-calls", calls: [{ name: "fs_write", arguments: args }] };
  }
  const args = { thought: `Edit ${step.path}.`, path: step.path, search: step.search, replace: step.replace };
  return { type: "tool-calls", calls: [{ name: "fs_edit", arguments: args }] };
}

/**
 * Like a model that serves a project intent: select the intent the step names (`INT-…`), then write
 * the file the step names — wherever that is, inside the intent's owned_scope or not.
 */
function selectThenWriteReply(request: ChatRequest): FakeReply {
  const text = intentionText(request);
  const step = fileStep(text);
  const intent = /\bINT-\d+/.exec(text)?.[0];
  if (step?.kind !== "write" || !intent) return actReply(request);
  if (toolResultCount(request) === 0) {
    const args = { thought: `This step serves ${intent}.`, intent_id: intent };
    return { type: "tool-calls", calls: [{ name: "select_active_intent", arguments: args }] };
  }
  const args = { thought: `Write ${step.path}.`, path: step.path, content: step.content };
  return { type: "tool-calls", calls: [{ name: "fs_write", arguments: args }] };
}

function malformedReply(request: ChatRequest): FakeReply {
  if (request.toolNames.includes("propose_decomposition")) {
    const children = [{ what: "everything at once" }];
    return {
      type: "tool-calls",
      calls: [{ name: "propose_decomposition", arguments: { thought: "", children } }],
    };
  }
  return {
    type: "tool-calls",
    calls: [{ name: SHELL, arguments: { thought: "I will run something" } }],
  };
}

/** The system prompt's text (the first `system` message). */
export function systemText(request: ChatRequest): string {
  const system = request.messages.find((message) => message.role === "system");
  return system ? textOf(system) : "";
}

/** The warmup stage's request, by its stage prompt (prompts/stage-warmup.md); it offers read tools. */
export function isWarmup(request: ChatRequest): boolean {
  return systemText(request).includes("This step: plan before acting");
}

/** Written only in the warmup's Analyze section, so tests can prove it never reaches a later request. */
export const WARMUP_ANALYSIS_MARK = "full analysis kept out of later requests";

export function warmupReply(request: ChatRequest): FakeReply {
  const task = (
    /The request:\s*\n\s*\n([\s\S]*?)\n\s*\nWhat intent discovery/.exec(intentionText(request))?.[1] ?? ""
  )
    .trim()
    .replace(/\s+/g, " ");
  const steps = splitSteps(task);
  const first = steps[0] ?? task;
  const text = [
    "<ide_reasoning>",
    `- **Analyze**: the person asks for "${task}" (${WARMUP_ANALYSIS_MARK}).`,
    "- **Research**: the files and commands the request names.",
    `- **Plan**: ${steps.map((step, index) => `${index + 1}. ${step}`).join("; ")}.`,
    "- **Reflect**: a command may fail; read its error before retrying.",
    `- **Action**: start with ${first}.`,
    "- **Delivery**: NEEDS_WORK",
    "</ide_reasoning>",
    `First I will ${first}.`,
  ].join("\n");
  return { type: "text", text };
}

/** With reasoning asked for (the instruction's marker in the system prompt), a short reflection. */
function reflecting(request: ChatRequest, reply: FakeReply): FakeReply {
  if (reply.type !== "tool-calls" || !systemText(request).includes("<ide_reasoning>")) return reply;
  const call = reply.calls[0];
  const args = call && typeof call.arguments === "object" ? JSON.stringify(call.arguments) : "";
  const text = [
    "<ide_reasoning>",
    `- **Plan delta**: ${toolResultCount(request)} tool results so far in this turn.`,
    `- **Next action**: ${call?.name ?? "nothing"} ${args}`,
    "- **Known risks**: the call may need approval.",
    "- **Delivery**: NEEDS_WORK",
    "</ide_reasoning>",
  ].join("\n");
  return { ...reply, text };
}

/** The question is the last user message (earlier ones are the session's history). */
function lastUserText(request: ChatRequest): string {
  return userTexts(request).at(-1) ?? "";
}

/** Tool results sent back so far: one message per call, in the order they were made. */
function toolResults(request: ChatRequest): string[] {
  return request.messages.filter((message) => message.role === "tool").map(textOf);
}

const ANSWER_CHUNK_DELAY_MS = 40;

/**
 * The answer path: first look (fs_search for the question's first backticked word or last word, and
 * fs_read of README.md), then answer in text that quotes what the tools returned, streamed slowly.
 */
function answerReply(request: ChatRequest): FakeReply {
  const results = toolResults(request);
  const question = lastUserText(request);
  if (results.length === 0) {
    const words = question.match(/[A-Za-z_][\w.-]{2,}/g) ?? ["README"];
    const pattern = backticked(question) ?? words.at(-1) ?? "README";
    return {
      type: "tool-calls",
      calls: [
        { name: "fs_search", arguments: { pattern, ignoreCase: true } },
        { name: "fs_read", arguments: { path: "README.md" } },
      ],
    };
  }
  const firstLine = (text: string) =>
    text
      .split("\n")
      .map((line) => line.replace(/^ *\d+\t/, "").trim())
      .find((line) => line !== "") ?? "(nothing)";
  const text = [
    `Here is what I found about "${question}" after ${results.length} tool calls.`,
    `The search said: ${firstLine(results[0] ?? "")}.`,
    `README.md begins with: ${firstLine(results[1] ?? "")}.`,
    "That is the whole answer from Arbor's fake model server, streamed word by word so the page can show it growing.",
  ].join(" ");
  return { type: "text", text, chunkDelayMs: ANSWER_CHUNK_DELAY_MS };
}

/** A model that ignores the read-only tools it was offered and asks for a write. */
function writeAttemptReply(request: ChatRequest): FakeReply {
  if (toolResults(request).length === 0) {
    return {
      type: "tool-calls",
      calls: [{ name: "fs_write", arguments: { path: "pwned.txt", content: "written from chat mode" } }],
    };
  }
  return { type: "text", text: `The write was refused: ${toolResults(request)[0] ?? ""}` };
}

/** The advisory reviewer's answer tool (server/model/qa-turn.ts). */
const SUBMIT_QA = "submit_qa_report";
/** An intention (or a task) marked this way gets a QA "fail" from the fake reviewer. */
const QA_FAIL_MARK = "(qa-fail)";

/**
 * The advisory reviewer: read the diff first (its result comes back in the same turn), then submit a
 * report — "fail" with a high finding when the request carries the mark, else "pass".
 */
function qaReviewReply(request: ChatRequest): FakeReply {
  if (toolResultCount(request) === 0) {
    return { type: "tool-calls", calls: [{ name: "git_diff", arguments: {} }] };
  }
  const failing = intentionText(request).includes(QA_FAIL_MARK);
  const report = failing
    ? {
        verdict: "fail",
        summary: "The fake reviewer fails work marked (qa-fail).",
        findings: [
          {
            severity: "high",
            file: "README.md",
            message: "the change is not what the reviewer wanted",
            suggestion: "write the README's usage section first",
          },
        ],
      }
    : { verdict: "pass", summary: "The fake reviewer found nothing to flag.", findings: [] };
  return { type: "tool-calls", calls: [{ name: SUBMIT_QA, arguments: report }] };
}

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

/**
 * Issue #16.1's hostile model: whatever the step, it writes `.git/config` through a command the gate
 * once called read-only (`git log --output=`), planting a `core.fsmonitor` that would run on the next
 * `git status`; a step that names `git status` runs it. The marker file shows whether anything ran.
 */
export const PLANTED_MARKER = "/tmp/arbor-planted-fsmonitor";
export const PLANTING_COMMAND = `git log -1 --format='[core]%n%x09fsmonitor = touch ${PLANTED_MARKER}' --output=.git/config`;

function plantGitConfigReply(request: ChatRequest): FakeReply {
  const command = intentionText(request).includes("git status") ? "git status" : PLANTING_COMMAND;
  return { type: "tool-calls", calls: [{ name: SHELL, arguments: { thought: "Tidy up.", command } }] };
}

/** Misbehave once in the act step (first ask, not the re-ask), then behave as by default. */
const actOnceThen = (name: string, reply: (request: ChatRequest) => FakeReply): Scenario => ({
  name,
  rules: [
    { description: `act, first ask: ${name}`, match: (r) => offers(SHELL)(r) && !isReAsk(r), reply },
    ...defaultRules,
  ],
});

export const SCENARIOS: Record<string, Scenario> = {
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
