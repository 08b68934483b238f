import { analyzePrompt } from "@/server/domain/intent/prompt-intent";
import { backticked, type ChatRequest, type FakeReply, intentionText } from "./request";
import { fileStep, splitSteps } from "./steps";

/** The fake model's answers to the understanding requests: reading the request, writing checks. */

/** Intent discovery: read the request like a model would (kind, verb, named targets, limits). */
export function reportIntentReply(request: ChatRequest): FakeReply {
  const { kind, action, targets, constraints } = analyzePrompt(intentionText(request));
  return {
    type: "tool-calls",
    calls: [{ name: "report_intent", arguments: { kind, action, targets, constraints } }],
  };
}

/**
 * The contract step: a single file step is checked by its file's content, a single backticked command
 * by its exit code; anything else (a compound task included: its children are checked) gets no
 * checks, and the action's exit code decides — as a careful model would.
 */
export function proposeContractReply(request: ChatRequest): FakeReply {
  const intention = /^Intention: (.*)$/m.exec(intentionText(request))?.[1] ?? "";
  // A compound intention is checked by its children; one file step or command is checked here.
  const single = splitSteps(intention).length === 1;
  const step = single ? fileStep(intention) : undefined;
  const command = single ? backticked(intention) : undefined;
  const criteria = step
    ? [
        {
          kind: "FILE_CONTAINS",
          path: step.path,
          text: (step.kind === "write" ? step.content : step.replace).trim(),
        },
      ]
    : command
      ? [{ kind: "TESTS_PASS", command }]
      : [];
  const thought =
    criteria.length > 0 ? "The step says what to check." : "Nothing to check but the exit code.";
  return { type: "tool-calls", calls: [{ name: "propose_contract", arguments: { thought, criteria } }] };
}

/** Test first: a file step's contract is a generated shell test that greps the file for its content. */
export function generatedTestReply(request: ChatRequest): FakeReply {
  const intention = /^Intention: (.*)$/m.exec(intentionText(request))?.[1] ?? "";
  const step = fileStep(intention);
  if (step?.kind !== "write") return proposeContractReply(request);
  const path = `tests/${step.path.replace(/[^\w.-]/g, "_")}.check.sh`;
  const text = step.content.trim().replace(/'/g, "'\\''");
  const generated_test = { path, content: `grep -qxF -- '${text}' ${step.path}\n`, command: `sh ${path}` };
  const args = {
    thought: "A test first: it fails until the file holds the text.",
    criteria: [],
    generated_test,
  };
  return { type: "tool-calls", calls: [{ name: "propose_contract", arguments: args }] };
}
