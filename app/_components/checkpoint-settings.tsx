"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { CheckpointPolicy, PreApprovableCategory } from "@/server/domain/policy/checkpoints";
import { describeError, useTRPC } from "../_trpc/client";

const COMMAND_LABELS = {
  "ask-always": "Ask before every command",
  "ask-unlisted": "Ask unless read-only (ls, cat, git status …)",
  "never-ask": "Never ask (denied programs and substitutions still stop)",
} as const;

/** Seed 000's judgment questions: the auto checkpoint answers, or a person confirms or overrides it. */
const QUESTIONS = [
  { key: "judgeAction", label: "Judge each action", testid: "checkpoint-judge-action" },
  { key: "verifyIntegration", label: "Verify integration", testid: "checkpoint-verify-integration" },
  { key: "reviewReflection", label: "Review reflections", testid: "checkpoint-review-reflection" },
] as const;

/** Seed 004's batch pre-approval: whole categories of changes that pass without a card. */
const PRE_APPROVALS: { category: PreApprovableCategory; label: string; testid: string }[] = [
  { category: "write", label: "File changes (write, edit, delete)", testid: "preapprove-write" },
  {
    category: "git-write",
    label: "Git changes (add, commit, branch, checkout)",
    testid: "preapprove-git-write",
  },
];

/** Which of the agent's questions go to a person in this project. */
export function CheckpointSettings({ projectId, policy }: { projectId: string; policy: CheckpointPolicy }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(policy);
  const save = useMutation(
    trpc.project.updateCheckpoints.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.project.getById.queryKey({ projectId }) }),
    }),
  );
  return (
    <section className="card" aria-label="Checkpoints">
      <h2>Checkpoints</h2>
      <div className="row">
        <label>
          Decompositions
          <select
            value={draft.decompositions}
            onChange={(event) =>
              setDraft({ ...draft, decompositions: event.target.value as CheckpointPolicy["decompositions"] })
            }
            data-testid="checkpoint-decompositions"
          >
            <option value="ask">Ask me to approve</option>
            <option value="auto">Approve automatically</option>
          </select>
        </label>
        <label>
          Writes outside the scope
          <select
            value={draft.outOfScopeWrites}
            onChange={(event) =>
              setDraft({
                ...draft,
                outOfScopeWrites: event.target.value as CheckpointPolicy["outOfScopeWrites"],
              })
            }
            data-testid="checkpoint-out-of-scope"
          >
            <option value="refuse">Refuse them, with the reason</option>
            <option value="ask">Ask me</option>
          </select>
        </label>
        <label>
          Commands
          <select
            value={draft.commands}
            onChange={(event) =>
              setDraft({ ...draft, commands: event.target.value as CheckpointPolicy["commands"] })
            }
            data-testid="checkpoint-commands"
          >
            {Object.entries(COMMAND_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {QUESTIONS.map((question) => (
          <label key={question.key}>
            {question.label}
            <select
              value={draft[question.key]}
              onChange={(event) =>
                setDraft({ ...draft, [question.key]: event.target.value as CheckpointPolicy["judgeAction"] })
              }
              data-testid={question.testid}
            >
              <option value="auto">Automatic</option>
              <option value="ask">Ask me to confirm</option>
            </select>
          </label>
        ))}
        <fieldset className="pre-approvals">
          <legend>Pre-approve for every run (protected files and secrets still ask)</legend>
          {PRE_APPROVALS.map((item) => (
            <label key={item.category}>
              <input
                type="checkbox"
                checked={draft.preApproved.includes(item.category)}
                onChange={(event) =>
                  setDraft({
                    ...draft,
                    preApproved: event.target.checked
                      ? [...draft.preApproved, item.category]
                      : draft.preApproved.filter((category) => category !== item.category),
                  })
                }
                data-testid={item.testid}
              />
              {item.label}
            </label>
          ))}
        </fieldset>
        <fieldset className="qa-settings">
          <legend>
            Advisory QA (a read-only review after each verified intention; never changes the work)
          </legend>
          <label>
            QA review
            <select
              value={draft.qaReview}
              onChange={(event) =>
                setDraft({ ...draft, qaReview: event.target.value as CheckpointPolicy["qaReview"] })
              }
              data-testid="checkpoint-qa-review"
            >
              <option value="off">Off</option>
              <option value="on">On: review each verified intention and the task</option>
            </select>
          </label>
          <label>
            <input
              type="checkbox"
              checked={draft.qaFeedback}
              onChange={(event) => setDraft({ ...draft, qaFeedback: event.target.checked })}
              data-testid="checkpoint-qa-feedback"
            />
            Feed QA findings to the next step (capped)
          </label>
        </fieldset>
        <button
          type="button"
          className="secondary"
          disabled={save.isPending}
          onClick={() => save.mutate({ projectId, checkpoints: draft })}
          data-testid="save-checkpoints"
        >
          {save.isPending ? "Saving…" : "Save"}
        </button>
        {save.isSuccess && !save.isPending && (
          <span className="muted small" data-testid="checkpoints-saved">
            Saved: applies from the next action.
          </span>
        )}
      </div>
      {save.error && (
        <p role="alert" className="error">
          {describeError(save.error)}
        </p>
      )}
    </section>
  );
}
