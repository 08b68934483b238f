"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { IntentStatus } from "@/server/domain/vocabulary/project-intents";
import { describeError, useTRPC } from "../_trpc/client";

/** The statuses a person picks from (the server's IntentStatus; RETIRED through the Retire button too). */
const STATUS_LABELS: Record<IntentStatus, string> = {
  PLANNED: "Planned",
  IN_PROGRESS: "In progress",
  BLOCKED: "Blocked",
  DONE: "Done",
  RETIRED: "Retired",
};

interface Draft {
  intentId: string;
  name: string;
  status: IntentStatus;
  ownedScope: string;
  constraints: string;
  acceptanceCriteria: string;
}

interface Shown {
  intentId: string;
  name: string;
  status: IntentStatus;
  ownedScope: string[];
  constraints: string[];
  acceptanceCriteria: string[];
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");

function draftOf(intent: Shown): Draft {
  return {
    intentId: intent.intentId,
    name: intent.name,
    status: intent.status,
    ownedScope: intent.ownedScope.join("\n"),
    constraints: intent.constraints.join("\n"),
    acceptanceCriteria: intent.acceptanceCriteria.join("\n"),
  };
}

function fieldsOf(draft: Draft) {
  return {
    name: draft.name,
    status: draft.status,
    ownedScope: lines(draft.ownedScope),
    constraints: lines(draft.constraints),
    acceptanceCriteria: lines(draft.acceptanceCriteria),
  };
}

/**
 * The project's intents (seed 003): what the agent may work on and where it may write. Members and
 * above add, edit and retire them; viewers read. Each session's workspace gets them as
 * `.orchestration/active_intents.yaml`.
 */
export function IntentsCard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.intent.list.queryOptions({ projectId }));
  const [editing, setEditing] = useState<{ mode: "create" | "edit"; draft: Draft } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const done = (what: string) => (result: { intent: { intentId: string }; mirroredTo: number }) => {
    setEditing(null);
    const reached =
      result.mirroredTo > 0
        ? ` and written into ${result.mirroredTo} running session${result.mirroredTo === 1 ? "" : "s"}`
        : "";
    setNotice(
      `${result.intent.intentId} ${what}${reached}; other sessions get it when their next run starts.`,
    );
    return queryClient.invalidateQueries({ queryKey: trpc.intent.list.queryKey({ projectId }) });
  };
  const create = useMutation(trpc.intent.create.mutationOptions({ onSuccess: done("saved") }));
  const update = useMutation(trpc.intent.update.mutationOptions({ onSuccess: done("saved") }));
  const retire = useMutation(trpc.intent.retire.mutationOptions({ onSuccess: done("retired") }));
  const saving = create.isPending || update.isPending;
  const error = create.error ?? update.error ?? retire.error;

  const save = () => {
    if (!editing) return;
    const fields = fieldsOf(editing.draft);
    if (editing.mode === "create")
      create.mutate({ projectId, intent: { intentId: editing.draft.intentId.trim(), ...fields } });
    else update.mutate({ projectId, intentId: editing.draft.intentId, fields });
  };
  const startCreate = () => {
    create.reset();
    setNotice(null);
    setEditing({
      mode: "create",
      draft: {
        intentId: list.data?.suggestedId ?? "INT-001",
        name: "",
        status: "IN_PROGRESS",
        ownedScope: "",
        constraints: "",
        acceptanceCriteria: "",
      },
    });
  };

  return (
    <section className="card" aria-label="Intents" data-testid="intents-card">
      <h2>Intents</h2>
      <p className="muted small" data-testid="intents-rule">
        In a run, the agent may select one of these with <code>select_active_intent</code>. From then on,
        until the run ends, a file write, edit or delete outside that intent&apos;s owned scope is refused and
        the agent is told why — or, when the Checkpoints setting &ldquo;Writes outside the scope&rdquo; is
        &ldquo;Ask me&rdquo;, it waits for a person. A step whose scope a person approved with its
        decomposition is held to that scope instead. Commands have no paths: the command checkpoint judges
        them, not the scope. Until an intent is selected, writes may go anywhere in the workspace and are
        approved as usual.
      </p>
      <p className="muted small">
        Every session&apos;s workspace gets them as <code>.orchestration/active_intents.yaml</code>: running
        sessions at once, the others when their next run starts. Retired intents stay listed here but leave
        the file.
      </p>
      {list.error && (
        <p role="alert" className="error">
          {describeError(list.error)}
        </p>
      )}
      {list.data?.intents.length === 0 && <p className="muted">No intents yet.</p>}
      <ul className="list stack" data-testid="intent-list">
        {list.data?.intents.map((intent) =>
          editing?.mode === "edit" && editing.draft.intentId === intent.intentId ? null : (
            <li
              key={intent.intentId}
              data-testid="intent-row"
              data-intent-id={intent.intentId}
              className="stack"
            >
              <div className="row">
                <strong data-testid="intent-id">{intent.intentId}</strong>
                <span data-testid="intent-name">{intent.name}</span>
                <span className="badge small" data-testid="intent-status">
                  {STATUS_LABELS[intent.status]}
                </span>
              </div>
              <p className="small" data-testid="intent-scope">
                Owned scope:{" "}
                {intent.ownedScope.map((glob) => (
                  <code key={glob}>{glob} </code>
                ))}
              </p>
              {intent.constraints.length > 0 && (
                <p className="small muted">Constraints: {intent.constraints.join("; ")}</p>
              )}
              {intent.acceptanceCriteria.length > 0 && (
                <p className="small muted">Acceptance: {intent.acceptanceCriteria.join("; ")}</p>
              )}
              {list.data?.canEdit && (
                <div className="row">
                  <button
                    type="button"
                    className="link small"
                    aria-label={`Edit ${intent.intentId}`}
                    onClick={() => {
                      update.reset();
                      setNotice(null);
                      setEditing({ mode: "edit", draft: draftOf(intent) });
                    }}
                    data-testid="intent-edit"
                  >
                    Edit
                  </button>
                  {intent.status !== "RETIRED" && (
                    <button
                      type="button"
                      className="link small"
                      aria-label={`Retire ${intent.intentId}`}
                      disabled={retire.isPending}
                      onClick={() => retire.mutate({ projectId, intentId: intent.intentId })}
                      data-testid="intent-retire"
                    >
                      Retire
                    </button>
                  )}
                </div>
              )}
            </li>
          ),
        )}
      </ul>
      {editing && (
        <IntentForm
          mode={editing.mode}
          draft={editing.draft}
          onChange={(draft) => setEditing({ ...editing, draft })}
          onSave={save}
          onCancel={() => setEditing(null)}
          saving={saving}
        />
      )}
      {error && (
        <p role="alert" className="error" data-testid="intent-error">
          {describeError(error)}
        </p>
      )}
      {notice && !editing && (
        <p className="muted small" data-testid="intent-notice">
          {notice}
        </p>
      )}
      {list.data?.canEdit && !editing && (
        <button type="button" className="secondary" onClick={startCreate} data-testid="intent-add">
          Add an intent
        </button>
      )}
    </section>
  );
}

function IntentForm({
  mode,
  draft,
  onChange,
  onSave,
  onCancel,
  saving,
}: {
  mode: "create" | "edit";
  draft: Draft;
  onChange: (draft: Draft) => void;
  onSave: () => void;
  onCancel: () => void;
  saving: boolean;
}) {
  const set = (patch: Partial<Draft>) => onChange({ ...draft, ...patch });
  return (
    <form
      className="stack"
      aria-label={mode === "create" ? "New intent" : `Edit ${draft.intentId}`}
      data-testid="intent-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      <div className="row">
        <label>
          Id
          <input
            value={draft.intentId}
            onChange={(event) => set({ intentId: event.target.value })}
            disabled={mode === "edit"}
            placeholder="INT-001"
            data-testid="intent-form-id"
          />
        </label>
        <label>
          Name
          <input
            value={draft.name}
            onChange={(event) => set({ name: event.target.value })}
            placeholder="JWT authentication migration"
            data-testid="intent-form-name"
          />
        </label>
        <label>
          Status
          <select
            value={draft.status}
            onChange={(event) => set({ status: event.target.value as IntentStatus })}
            data-testid="intent-form-status"
          >
            {Object.entries(STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label>
        Owned scope (one glob per line, relative to the workspace)
        <textarea
          value={draft.ownedScope}
          onChange={(event) => set({ ownedScope: event.target.value })}
          rows={3}
          placeholder={"src/auth/**\nsrc/middleware/jwt.ts"}
          spellCheck={false}
          data-testid="intent-form-scope"
        />
      </label>
      <label>
        Constraints (one per line)
        <textarea
          value={draft.constraints}
          onChange={(event) => set({ constraints: event.target.value })}
          rows={2}
          data-testid="intent-form-constraints"
        />
      </label>
      <label>
        Acceptance criteria (one per line)
        <textarea
          value={draft.acceptanceCriteria}
          onChange={(event) => set({ acceptanceCriteria: event.target.value })}
          rows={2}
          data-testid="intent-form-acceptance"
        />
      </label>
      <div className="row">
        <button type="submit" className="primary" disabled={saving} data-testid="intent-save">
          {saving ? "Saving…" : mode === "create" ? "Add intent" : "Save intent"}
        </button>
        <button type="button" className="secondary" onClick={onCancel} data-testid="intent-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}
