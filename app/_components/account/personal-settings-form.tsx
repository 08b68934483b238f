"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { UserSettings } from "@/server/domain/settings/user-config";
import { describeError, useTRPC } from "../../_trpc/client";
import { type Draft, draftOf, settingsOf } from "./personal-settings-draft";

/** Checkpoint choices a person may make for their own runs, each left to the layers below when unset. */
const CHECKPOINTS = [
  { key: "decompositions", label: "Decompositions", options: { ask: "Ask me to approve" } },
  {
    key: "commands",
    label: "Commands",
    options: { "ask-always": "Ask before every command", "ask-unlisted": "Ask unless read-only" },
  },
  { key: "judgeAction", label: "Judge each action", options: { ask: "Ask me to confirm" } },
  { key: "verifyIntegration", label: "Verify integration", options: { ask: "Ask me to confirm" } },
  { key: "reviewReflection", label: "Review reflections", options: { ask: "Ask me to confirm" } },
  { key: "qaReview", label: "Advisory QA review", options: { on: "On" } },
] as const;

const NUMBERS = [
  { key: "maxIterations", label: "Actions per run, at most" },
  { key: "maxDepth", label: "Decomposition depth, at most" },
  { key: "maxCyclesPerIntention", label: "Cycles per intention, at most" },
  { key: "wallClockSeconds", label: "Run time in seconds, at most" },
  { key: "maxCostUsd", label: "Cost per run in USD, at most" },
  { key: "maxTokens", label: "Tokens per run, at most" },
] as const;

/**
 * The person's own settings layer (issue #20.3), for the runs of the sessions they open in any team.
 * Only choices that make runs stricter are offered (the server ignores looser ones anyway); fields the
 * form does not show (command lists…) are kept as they were.
 */
export function PersonalSettingsForm() {
  const trpc = useTRPC();
  const stored = useQuery(trpc.account.settings.queryOptions());
  if (stored.error) return <p className="error">{describeError(stored.error)}</p>;
  if (!stored.data) return <p className="muted">Loading…</p>;
  return <Form stored={stored.data.settings} />;
}

function Form({ stored }: { stored: UserSettings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(stored));
  const save = useMutation(
    trpc.account.saveSettings.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.account.settings.queryKey() }),
    }),
  );
  const set = (key: keyof Draft, value: string) => setDraft({ ...draft, [key]: value });
  return (
    <section className="card" aria-label="Your settings" data-testid="personal-settings">
      <p className="muted">
        These apply to the runs of the sessions <strong>you</strong> open, in every team. The model is your
        choice (the provider and its key stay the project's or team's); checkpoints, limits and budgets can
        only make runs stricter than the project allows. A project's settings page shows each value with its
        source ("you").
      </p>
      <div className="row">
        <label>
          Model name
          <input
            value={draft.modelName}
            placeholder="the project's"
            onChange={(event) => set("modelName", event.target.value)}
            data-testid="personal-model-name"
          />
        </label>
        <label>
          Model timeout (seconds)
          <input
            inputMode="numeric"
            value={draft.timeoutSeconds}
            placeholder="the project's"
            onChange={(event) => set("timeoutSeconds", event.target.value)}
            data-testid="personal-model-timeout"
          />
        </label>
      </div>
      <h2>Checkpoints</h2>
      <div className="row">
        {CHECKPOINTS.map((field) => (
          <label key={field.key}>
            {field.label}
            <select
              value={draft[field.key]}
              onChange={(event) => set(field.key, event.target.value)}
              data-testid={`personal-${field.key}`}
            >
              <option value="">As the project says</option>
              {Object.entries(field.options).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      <h2>Limits and budget</h2>
      <div className="row">
        {NUMBERS.map((field) => (
          <label key={field.key}>
            {field.label}
            <input
              inputMode="decimal"
              value={draft[field.key]}
              placeholder="the project's"
              onChange={(event) => set(field.key, event.target.value)}
              data-testid={`personal-${field.key}`}
            />
          </label>
        ))}
      </div>
      <div className="row">
        <SaveButton draft={draft} stored={stored} save={save} />
      </div>
    </section>
  );
}

function SaveButton({
  draft,
  stored,
  save,
}: {
  draft: Draft;
  stored: UserSettings;
  save: { mutate: (settings: UserSettings) => void; isPending: boolean; isSuccess: boolean; error: unknown };
}) {
  const built = settingsOf(draft, stored);
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={save.isPending || !built.ok}
        onClick={() => built.ok && save.mutate(built.settings)}
        data-testid="save-personal-settings"
      >
        {save.isPending ? "Saving…" : "Save"}
      </button>
      {!built.ok && (
        <span role="alert" className="error" data-testid="personal-settings-problem">
          {built.problem}
        </span>
      )}
      {built.ok && save.isSuccess && !save.isPending && (
        <span className="muted small" data-testid="personal-settings-saved">
          Saved: applies to your next run.
        </span>
      )}
      {save.error != null && (
        <span role="alert" className="error">
          {describeError(save.error)}
        </span>
      )}
    </>
  );
}
