import { type ChatRequest, type FakeReply, intentionText, toolResultCount } from "./request";

/** The advisory reviewer's answer tool (server/model/qa-turn.ts). */
export const SUBMIT_QA = "submit_qa_report";
/** An intention (or a task) marked this way gets a QA "fail" from the fake reviewer. */
const QA_FAIL_MARK = "(qa-fail)";

/**
 * The advisory reviewer: read the diff first (its result comes back in the same turn), then submit a
 * report — "fail" with a high finding when the request carries the mark, else "pass".
 */
export function qaReviewReply(request: ChatRequest): FakeReply {
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
