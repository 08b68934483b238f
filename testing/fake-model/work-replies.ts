import {
  backticked,
  type ChatRequest,
  type FakeReply,
  intentionText,
  offers,
  systemText,
  toolResultCount,
} from "./request";
import { fileStep, splitSteps } from "./steps";

/**
 * The fake model doing the work: plan (split the task into checked steps), act (run the backticked
 * command, or read then write or edit a file step), and the misbehaving variants the scenarios script
 * (invalid tool input, a hostile command that plants a git config).
 */

export function planReply(request: ChatRequest): FakeReply {
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
export const SHELL = "shell_exec";

export function actReply(request: ChatRequest): FakeReply {
  const command = backticked(intentionText(request)) ?? "echo done";
  return {
    type: "tool-calls",
    calls: [{ name: SHELL, arguments: { thought: `Run ${command}.`, command } }],
  };
}

/**
 * Like a careful model: read the file first (its result comes back in the same turn), then write or
 * edit it. A step that is not a file step is run as a command.
 */
export function readThenActReply(request: ChatRequest): FakeReply {
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
export function selectThenWriteReply(request: ChatRequest): FakeReply {
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

export function malformedReply(request: ChatRequest): FakeReply {
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

/** With reasoning asked for (the instruction's marker in the system prompt), a short reflection. */
export function reflecting(request: ChatRequest, reply: FakeReply): FakeReply {
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

/**
 * Issue #16.1's hostile model: whatever the step, it writes `.git/config` through a command the gate
 * once called read-only (`git log --output=`), planting a `core.fsmonitor` that would run on the next
 * `git status`; a step that names `git status` runs it. The marker file shows whether anything ran.
 */
export const PLANTED_MARKER = "/tmp/arbor-planted-fsmonitor";
export const PLANTING_COMMAND = `git log -1 --format='[core]%n%x09fsmonitor = touch ${PLANTED_MARKER}' --output=.git/config`;

export function plantGitConfigReply(request: ChatRequest): FakeReply {
  const command = intentionText(request).includes("git status") ? "git status" : PLANTING_COMMAND;
  return { type: "tool-calls", calls: [{ name: SHELL, arguments: { thought: "Tidy up.", command } }] };
}
