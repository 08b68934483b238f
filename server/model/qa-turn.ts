import { type ModelMessage, type ToolSet, tool } from "ai";
import { z } from "zod";
import { QaReport } from "@/server/domain/events/bodies/qa";
import type { ToolName } from "@/server/domain/tools/catalogue";
import { toolNameOf } from "@/server/domain/tools/wire-names";
import { readToolSet } from "./read-tools";
import type { ToolCallOutcome } from "./request-tool-call";
import type { QaInput, ReadPort } from "./types";

/**
 * The advisory QA review as one model turn (seed 001 §2.3): the reviewer is offered the stage
 * policy's read-only tools and one answer tool, `submit_qa_report`. Reads run through the engine's
 * read port (the one dispatch); a call of anything else — a write the model invents — is refused in
 * words and never reaches the dispatch. One corrective re-ask for a report that does not validate.
 */

export const SUBMIT_QA_REPORT = "submit_qa_report";

const SUBMIT_DESCRIPTION = [
  "Submit your advisory QA report and end the review. `verdict`: pass (nothing to fix), concerns",
  "(worth a look) or fail (the work does not do what was asked). `findings`: each with a severity",
  "(info, low, medium, high), the file it concerns (or null), what is wrong and a suggestion. `summary`:",
  "two or three sentences for the user. The report is advice; it never changes the work or the answer.",
].join(" ");

/** The read tools (with their manuals) plus the answer tool. */
export function qaToolSet(offered: readonly ToolName[]): ToolSet {
  return {
    ...readToolSet(offered),
    [SUBMIT_QA_REPORT]: tool({ description: SUBMIT_DESCRIPTION, inputSchema: QaReport }),
  };
}

/** The review's user message: the request, the intention, how it ended and what was done. */
export function qaUserMessage(input: QaInput): string {
  return [
    `## The user's request\n\n${input.task}`,
    `## The intention under review\n\n${input.what}`,
    `## How we know it is done\n\n${input.acceptance || "(no acceptance stated)"}`,
    `## How it ended\n\n${input.outcome}`,
    `## What was done\n\n${input.work.length > 0 ? input.work.map((line) => `- ${line}`).join("\n") : "(no action of its own: its children did the work)"}`,
  ].join("\n\n");
}

export interface QaTurnDeps {
  /** The policy's tools for `qa_review`: read-only. */
  offered: readonly ToolName[];
  reads: ReadPort | undefined;
  request(messages: ModelMessage[]): Promise<ToolCallOutcome>;
  correction(problem: string): string;
}

export type QaTurnResult = { ok: true; report: QaReport; reads: string[] } | { ok: false; problem: string };

export async function runQaTurn(task: ModelMessage, deps: QaTurnDeps): Promise<QaTurnResult> {
  const messages: ModelMessage[] = [task];
  const made: string[] = [];
  const maxReads = deps.reads?.maxReads ?? 0;
  let reAsked = false;
  const reAsk = (problem: string): boolean => {
    if (reAsked) return false;
    reAsked = true;
    messages.push({ role: "user", content: deps.correction(problem) });
    return true;
  };
  // Each read round and the one re-ask cost a request; the bound keeps a confused model from looping.
  for (let request = 0; request < maxReads + 3; request++) {
    const outcome = await deps.request(messages);
    const submit = outcome.calls.find((call) => call.toolName === SUBMIT_QA_REPORT);
    if (submit) {
      const parsed = QaReport.safeParse(submit.input);
      if (parsed.success) return { ok: true, report: parsed.data, reads: made };
      if (reAsk(`the report does not validate: ${z.prettifyError(parsed.error)}`)) continue;
      return { ok: false, problem: `the report does not validate: ${z.prettifyError(parsed.error)}` };
    }
    if (outcome.calls.length === 0) {
      if (reAsk(`call ${SUBMIT_QA_REPORT} (or a read tool); plain text is not a report`)) continue;
      return { ok: false, problem: "the reviewer answered in text instead of submitting a report" };
    }
    // One assistant message with every call, then one result per call: the order the wire expects.
    const asked: { type: "tool-call"; toolCallId: string; toolName: string; input: unknown }[] = [];
    const results: ModelMessage[] = [];
    for (const call of outcome.calls) {
      const name = toolNameOf(call.toolName);
      const toolCallId = call.toolCallId ?? `qa-${request}-${results.length}`;
      let value: string;
      if (!name || !deps.offered.includes(name)) {
        value = `${call.toolName} is not available in a review: only ${deps.offered.join(", ")} (read-only). Nothing was changed.`;
      } else if (!deps.reads || made.length >= maxReads) {
        value = `No reads left in this review: call ${SUBMIT_QA_REPORT} now.`;
      } else {
        made.push(`${name} ${JSON.stringify(call.input ?? {}).slice(0, 400)}`);
        value = await deps.reads.run({ tool: name, input: call.input ?? {} });
      }
      asked.push({ type: "tool-call", toolCallId, toolName: call.toolName, input: call.input ?? {} });
      results.push({
        role: "tool",
        content: [
          { type: "tool-result", toolCallId, toolName: call.toolName, output: { type: "text", value } },
        ],
      });
    }
    messages.push({ role: "assistant", content: asked }, ...results);
  }
  return { ok: false, problem: "the reviewer kept reading without submitting a report" };
}
