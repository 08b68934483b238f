import { z } from "zod";

/**
 * The one typed answer of the approval gate. `ask` sends the call to a person; with `confirm` the
 * person must confirm explicitly (seed 004's dangerous class: delete, shell, checkout).
 */
export const APPROVAL_DECISIONS = ["approve", "deny", "ask"] as const;
export const ApprovalDecisionKind = z.enum(APPROVAL_DECISIONS);
export type ApprovalDecisionKind = z.infer<typeof ApprovalDecisionKind>;

export interface ApprovalDecision {
  decision: ApprovalDecisionKind;
  /** Shown to the person asked and returned to the model on deny, so it says what and why. */
  reason: string;
  confirm?: boolean;
}

export function approve(reason: string): ApprovalDecision {
  return { decision: "approve", reason };
}

export function deny(reason: string): ApprovalDecision {
  return { decision: "deny", reason };
}

export function ask(reason: string, confirm: boolean): ApprovalDecision {
  return confirm ? { decision: "ask", reason, confirm: true } : { decision: "ask", reason };
}
