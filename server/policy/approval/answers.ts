import { z } from "zod";
import { verifyBinding } from "./binding";

/**
 * A person's answer to an approval request (seed 004) and what the dispatch does with it. `edit` does
 * not carry the approval over: the edited call is a new call that goes through the gate again.
 */
export const APPROVAL_ANSWERS = ["yes", "no", "abort", "edit"] as const;
export const ApprovalAnswer = z.enum(APPROVAL_ANSWERS);
export type ApprovalAnswer = z.infer<typeof ApprovalAnswer>;

const SHORT_FORMS: Record<string, ApprovalAnswer> = { y: "yes", n: "no", a: "abort", e: "edit" };

/** Accepts the words and their one-letter forms, any case; anything else is not an answer. */
export function parseApprovalAnswer(text: string): ApprovalAnswer | null {
  const word = text.trim().toLowerCase();
  const parsed = ApprovalAnswer.safeParse(word);
  if (parsed.success) return parsed.data;
  return Object.hasOwn(SHORT_FORMS, word) ? (SHORT_FORMS[word] ?? null) : null;
}

export type AnswerOutcome =
  | { outcome: "execute" }
  | { outcome: "refuse"; reason: string }
  | { outcome: "skip"; toolResult: string }
  | { outcome: "abort-run" }
  | { outcome: "re-decide" };

/**
 * `yes` executes only if the call about to run still matches the binding recorded when the person was
 * asked; `no` skips the call and tells the model; `abort` stops the run; `edit` re-enters the gate.
 */
export function resolveApprovalAnswer(input: {
  answer: ApprovalAnswer;
  approvedBinding: string;
  tool: string;
  toolInput: unknown;
}): AnswerOutcome {
  switch (input.answer) {
    case "yes":
      return verifyBinding(input.approvedBinding, input.tool, input.toolInput)
        ? { outcome: "execute" }
        : { outcome: "refuse", reason: "What would run differs from what was approved; ask again." };
    case "no":
      return {
        outcome: "skip",
        toolResult: `The user declined ${input.tool}; choose another way or ask them.`,
      };
    case "abort":
      return { outcome: "abort-run" };
    case "edit":
      return { outcome: "re-decide" };
  }
}
