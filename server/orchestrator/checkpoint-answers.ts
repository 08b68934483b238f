import { UserFacingError } from "@/server/domain/errors";
import { CheckpointAnswer, type CheckpointAnswerInput } from "@/server/domain/events/checkpoint-schema";
import { defaultGrant, spentBy } from "@/server/domain/session/budgets";
import type { ApprovalView, SessionView } from "@/server/domain/session/view";

const QUESTION_OF_KIND: Record<string, CheckpointAnswer["question"]> = {
  judgment: "judge_action",
  integration: "verify_integration",
  reflection: "review_reflection",
  "intention-budget": "intention_budget",
};

/**
 * A person's answer to a judgment question or an intention's budget, checked against what was asked.
 * Approving without an answer confirms the proposal (a grant of the share again, for a budget);
 * rejecting without one flips an integration verdict or stops an intention. A judgment or reflection
 * rejected without saying what instead is refused: the transition must never guess a person's verdict.
 * `decision` is recorded as "approved" when the proposal stands, "rejected" when the person changed it.
 */
export function resolveCheckpointAnswer(
  view: SessionView,
  approval: ApprovalView,
  decision: "approved" | "rejected",
  given: CheckpointAnswerInput | undefined,
): { decision: "approved" | "rejected"; answer: CheckpointAnswer | null } {
  const question = QUESTION_OF_KIND[approval.kind];
  if (!question) {
    if (given) throw new UserFacingError(`A ${approval.kind} approval takes no verdict.`, "BAD_REQUEST");
    return { decision, answer: null };
  }
  const proposal = approval.proposal;
  if (!proposal || proposal.question !== question)
    throw new UserFacingError("That question has no proposal to answer.", "CONFLICT");
  if (given && given.question !== question)
    throw new UserFacingError(`That question takes a ${question} answer.`, "BAD_REQUEST");
  const parsed = CheckpointAnswer.safeParse(given ?? defaultAnswer(approval, decision));
  if (!parsed.success)
    throw new UserFacingError("That answer is not valid for this question.", "BAD_REQUEST");
  const answer = completed(view, approval, parsed.data);
  return { decision: standsAsProposed(approval, answer) ? "approved" : "rejected", answer };
}

function defaultAnswer(approval: ApprovalView, decision: "approved" | "rejected"): CheckpointAnswerInput {
  const proposal = approval.proposal;
  switch (proposal?.question) {
    case "judge_action":
      if (decision === "rejected")
        throw new UserFacingError("Choose the verdict that replaces the proposed one.", "BAD_REQUEST");
      return { question: "judge_action", judgment: proposal.judgment };
    case "verify_integration": {
      const flipped = proposal.status === "VERIFIED" ? "FAILED" : "VERIFIED";
      return { question: "verify_integration", status: decision === "approved" ? proposal.status : flipped };
    }
    case "review_reflection":
      if (decision === "rejected")
        throw new UserFacingError("Edit the reflection or ask for a decomposition.", "BAD_REQUEST");
      return { question: "review_reflection", reflection: proposal.reflection };
    case "intention_budget": {
      return { question: "intention_budget", choice: decision === "rejected" ? "stop" : "grant" };
    }
    default:
      throw new UserFacingError("That question has no proposal to answer.", "CONFLICT");
  }
}

/** Fills a grant the person left without an amount; refuses what cannot be carried out. */
function completed(view: SessionView, approval: ApprovalView, answer: CheckpointAnswer): CheckpointAnswer {
  if (answer.question === "review_reflection" && answer.reflection.trim() === "")
    throw new UserFacingError("A reflection cannot be empty.", "BAD_REQUEST");
  if (answer.question !== "intention_budget") return answer;
  const intention = view.intentions[approval.intentionId];
  if (answer.choice === "decompose" && (intention?.childIds.length ?? 0) > 0)
    throw new UserFacingError("That intention is already decomposed: grant more or stop it.", "BAD_REQUEST");
  const named = answer.grant && ((answer.grant.maxCostUsd ?? 0) > 0 || (answer.grant.maxTokens ?? 0) > 0);
  if (answer.choice !== "grant" || named) return answer;
  const grant = defaultGrant(intention?.budget ?? null, spentBy(view, approval.intentionId));
  return { ...answer, grant };
}

function standsAsProposed(approval: ApprovalView, answer: CheckpointAnswer): boolean {
  const proposal = approval.proposal;
  switch (answer.question) {
    case "judge_action":
      return proposal?.question === "judge_action" && proposal.judgment === answer.judgment;
    case "verify_integration":
      return proposal?.question === "verify_integration" && proposal.status === answer.status;
    case "review_reflection":
      return (
        proposal?.question === "review_reflection" &&
        proposal.reflection === answer.reflection &&
        !answer.decompose
      );
    case "intention_budget":
      return answer.choice === "grant";
  }
}
