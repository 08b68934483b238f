"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { setupSourceLabel } from "@/server/domain/settings/setup-command";
import {
  EGRESS_MODE_LABELS,
  EGRESS_MODES,
  type EgressMode,
  type EgressSettings,
} from "@/server/domain/vocabulary/egress";
import { describeError, useTRPC } from "../_trpc/client";

/**
 * The project's sandbox network per phase, its setup command (approved once per exact text) and its
 * setup secrets (write-only: the page only ever sees their names). Changes apply to new sessions.
 */
export function NetworkSetupSettings({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useQuery(trpc.environment.get.queryOptions({ projectId }));
  const [egress, setEgress] = useState<EgressSettings | null>(null);
  const [allowText, setAllowText] = useState("");
  const [command, setCommand] = useState("");
  const [secretName, setSecretName] = useState("");
  const [secretValue, setSecretValue] = useState("");
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (!view.data) return;
    setEgress(view.data.egress);
    setAllowText(view.data.egress.allowList.join("\n"));
    setCommand(view.data.setup.custom ? (view.data.setup.command ?? "") : "");
  }, [view.data]);
  const done = (result: { note: string }) => {
    setNote(result.note);
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.environment.get.queryKey({ projectId }) }),
      // The Repository settings card lists the setup command with its approval too.
      queryClient.invalidateQueries({ queryKey: trpc.settings.layers.queryKey({ projectId }) }),
    ]);
  };
  const saveNetwork = useMutation(trpc.environment.saveNetwork.mutationOptions({ onSuccess: done }));
  const saveCommand = useMutation(trpc.environment.saveSetupCommand.mutationOptions({ onSuccess: done }));
  const approve = useMutation(trpc.environment.approveSetup.mutationOptions({ onSuccess: done }));
  const setSecret = useMutation(
    trpc.environment.setSecret.mutationOptions({
      onSuccess: (result) => {
        setSecretName("");
        setSecretValue("");
        return done(result);
      },
    }),
  );
  if (!view.data || !egress) return null;
  const { setup, secretNames, registryHosts } = view.data;
  const error = saveNetwork.error ?? saveCommand.error ?? approve.error ?? setSecret.error;

  const phase = (key: "setup" | "agent", label: string) => (
    <label>
      {label}
      <select
        value={egress[key].mode}
        disabled={!canEdit}
        onChange={(event) =>
          setEgress({ ...egress, [key]: { ...egress[key], mode: event.target.value as EgressMode } })
        }
        data-testid={`egress-${key}-mode`}
      >
        {EGRESS_MODES.map((mode) => (
          <option key={mode} value={mode}>
            {EGRESS_MODE_LABELS[mode]}
          </option>
        ))}
      </select>
      <span>
        <input
          type="checkbox"
          checked={egress[key].getHeadOnly}
          disabled={!canEdit}
          onChange={(event) =>
            setEgress({ ...egress, [key]: { ...egress[key], getHeadOnly: event.target.checked } })
          }
          data-testid={`egress-${key}-get-head`}
        />
        GET/HEAD only (refuses HTTPS tunnels)
      </span>
    </label>
  );

  return (
    <section className="card" aria-label="Network and setup">
      <h2>Network and setup</h2>
      <p className="muted">Changes apply to new sessions; sessions already running keep what they have.</p>
      <div className="row">
        {phase("setup", "Setup phase network")}
        {phase("agent", "Agent phase network")}
      </div>
      <label>
        {/* One span: the label lays its children out as a column, and the text must stay one line. */}
        <span>
          Custom allow-list (one host per line: <code>example.com</code>, <code>.example.com</code> for
          everything under it, optionally <code>:port</code>)
        </span>
        <textarea
          rows={3}
          value={allowText}
          disabled={!canEdit}
          onChange={(event) => setAllowText(event.target.value)}
          data-testid="egress-allow-list"
        />
      </label>
      <details>
        <summary>Package registries only allows</summary>
        <p className="muted">{registryHosts.join(", ")} (ports 80 and 443)</p>
      </details>
      {canEdit && (
        <button
          type="button"
          onClick={() =>
            saveNetwork.mutate({
              projectId,
              egress: {
                ...egress,
                allowList: allowText
                  .split("\n")
                  .map((line) => line.trim())
                  .filter(Boolean),
              },
            })
          }
          disabled={saveNetwork.isPending}
          data-testid="egress-save"
        >
          Save network
        </button>
      )}

      <h3>Setup command</h3>
      <p data-testid="setup-command">
        {setup.command ? (
          <code>{setup.command}</code>
        ) : (
          "None (no own command, none in .arbor/config.yaml, no lock file)"
        )}{" "}
        {setup.source && (
          <span className="muted" data-testid="setup-source">
            ({setupSourceLabel(setup.source, setup.defaultBranch)})
          </span>
        )}
      </p>
      {setup.repoCommand && setup.source === "project" && (
        <p className="muted small" data-testid="setup-repo-overridden">
          <code>.arbor/config.yaml</code> on {setup.defaultBranch} names <code>{setup.repoCommand}</code>; the
          project's own command beats it (clear yours to use the file's).
        </p>
      )}
      {setup.repoProblem && (
        <p role="alert" className="error small" data-testid="setup-repo-problem">
          Not used: {setup.repoProblem}
        </p>
      )}
      <p data-testid="setup-approval">
        {setup.command == null
          ? null
          : setup.approved
            ? "Approved: it runs once in every new session's workspace."
            : setup.otherApproved
              ? "Not approved: the command changed since a person approved one; new sessions skip it until a person approves this exact command."
              : "Not approved yet: new sessions skip it until a person approves this exact command."}
      </p>
      {canEdit && setup.command && !setup.approved && setup.hash && (
        <button
          type="button"
          onClick={() => approve.mutate({ projectId, hash: setup.hash ?? "" })}
          disabled={approve.isPending}
          data-testid="setup-approve"
        >
          Approve this setup command
        </button>
      )}
      {canEdit && (
        <label>
          Your own setup command (empty: the one in .arbor/config.yaml, else the detected one)
          <input
            value={command}
            onChange={(event) => setCommand(event.target.value)}
            placeholder={setup.repoCommand ?? setup.detected ?? "npm ci"}
            data-testid="setup-command-input"
          />
          <button
            type="button"
            onClick={() => saveCommand.mutate({ projectId, command: command.trim() ? command : null })}
            disabled={saveCommand.isPending}
            data-testid="setup-command-save"
          >
            Save command
          </button>
        </label>
      )}

      <h3>Setup secrets</h3>
      <p className="muted">
        Given to the setup command only, as environment variables; the agent phase never has them. A setup
        script that copies one into a file leaves it in the workspace.
      </p>
      <ul data-testid="setup-secrets">
        {secretNames.map((name) => (
          <li key={name}>
            <code>{name}</code>{" "}
            {canEdit && (
              <button type="button" onClick={() => setSecret.mutate({ projectId, name, value: null })}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {canEdit && (
        <div className="row">
          <input
            value={secretName}
            onChange={(event) => setSecretName(event.target.value)}
            placeholder="NPM_TOKEN"
            aria-label="Secret name"
            data-testid="setup-secret-name"
          />
          <input
            type="password"
            value={secretValue}
            onChange={(event) => setSecretValue(event.target.value)}
            aria-label="Secret value"
            autoComplete="off"
            data-testid="setup-secret-value"
          />
          <button
            type="button"
            onClick={() => setSecret.mutate({ projectId, name: secretName, value: secretValue })}
            disabled={setSecret.isPending || !secretName || !secretValue}
            data-testid="setup-secret-save"
          >
            Set secret
          </button>
        </div>
      )}
      {note && (
        <p className="muted" data-testid="environment-note">
          {note}
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {describeError(error)}
        </p>
      )}
    </section>
  );
}
