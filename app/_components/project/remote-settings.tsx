"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";
import {
  type CredentialDraft,
  credentialInput,
  EMPTY_CREDENTIAL,
  RemoteCredentialFields,
} from "./remote-credential-fields";

const CREDENTIAL_LABELS = { none: "none", token: "HTTPS token", "ssh-key": "SSH deploy key" } as const;

/**
 * The project's upstream git remote (issue #21.3): its URL, whether pull requests go to GitHub, and
 * its credential, which an admin sets, replaces or removes but nobody sees again (only "set" and at
 * most its last 4 characters).
 */
export function RemoteSettings({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remote = useQuery(trpc.remote.get.queryOptions({ projectId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.remote.get.queryKey({ projectId }) });
  const save = useMutation(trpc.remote.save.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.remote.remove.mutationOptions({ onSuccess: refresh }));
  const [credential, setCredential] = useState<CredentialDraft>(EMPTY_CREDENTIAL);
  const [removeCredential, setRemoveCredential] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const current = remote.data ?? null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const provider = String(form.get("provider") ?? "");
    const typed = credentialInput(credential);
    save.mutate(
      {
        projectId,
        remote: {
          url: String(form.get("url") ?? ""),
          provider: provider === "git" || provider === "github" ? provider : null,
          credential: typed ?? (removeCredential ? { action: "clear" } : { action: "keep" }),
        },
      },
      {
        onSuccess: () => {
          setCredential(EMPTY_CREDENTIAL);
          setRemoveCredential(false);
          setFormKey((key) => key + 1);
        },
      },
    );
  }

  if (remote.isPending) return null;
  return (
    <section className="card" aria-label="Git remote" data-testid="remote-settings">
      <h2>Git remote</h2>
      <p className="muted small">
        Where a session's saved branch is pushed (never forced) and, on GitHub, where its pull request is
        opened. The server pushes from the project's repository; the credential never enters a sandbox.
      </p>
      {current ? (
        <p className="small" data-testid="remote-current">
          <code>{current.url}</code> · {current.provider === "github" ? "GitHub" : "git"} · credential:{" "}
          {current.credential.set
            ? `${CREDENTIAL_LABELS[current.credential.kind]} set${current.credential.hint ? ` (…${current.credential.hint})` : ""}`
            : "none"}
        </p>
      ) : null}
      {current && current.credential.kind === "ssh-key" ? (
        <p className="muted small" data-testid="remote-host-key">
          {current.hostKeys.length > 0
            ? `SSH host key, pinned on first use (compare it with the server's): ${current.hostKeys.join(", ")}. A different key is refused; entering the deploy key again pins the next one.`
            : "SSH host key: pinned at the next connection (trust on first use)."}
        </p>
      ) : null}
      {current ? null : (
        <p className="muted small" data-testid="remote-current">
          No remote yet.
        </p>
      )}
      {canEdit ? (
        <form key={formKey} onSubmit={submit} className="stack" aria-label="Git remote settings">
          <label>
            Remote URL
            <input
              name="url"
              required
              defaultValue={current?.url ?? ""}
              placeholder="https://github.com/team/repo.git or git@github.com:team/repo.git"
              data-testid="remote-url"
            />
          </label>
          <label>
            Pull requests
            <select name="provider" defaultValue={current?.provider ?? ""} data-testid="remote-provider">
              <option value="">Detect (github.com opens pull requests)</option>
              <option value="github">GitHub (or GitHub Enterprise): open pull requests</option>
              <option value="git">Plain git: push only</option>
            </select>
          </label>
          <RemoteCredentialFields value={credential} onChange={setCredential} idPrefix="remote" />
          {current?.credential.set && credential.kind === "none" && (
            <label className="inline">
              <input
                type="checkbox"
                checked={removeCredential}
                onChange={(event) => setRemoveCredential(event.target.checked)}
                data-testid="remote-credential-remove"
              />
              Remove the stored credential
            </label>
          )}
          <div className="row">
            <button type="submit" className="primary" disabled={save.isPending} data-testid="remote-save">
              {save.isPending ? "Saving…" : "Save remote"}
            </button>
            {current && (
              <button
                type="button"
                className="danger"
                disabled={remove.isPending}
                onClick={() => remove.mutate({ projectId })}
                data-testid="remote-remove"
              >
                Remove remote
              </button>
            )}
          </div>
          {(save.error ?? remove.error) && (
            <p role="alert" className="error" data-testid="remote-error">
              {describeError(save.error ?? remove.error)}
            </p>
          )}
        </form>
      ) : (
        <p className="muted small">Only the team's owners and admins change the remote.</p>
      )}
    </section>
  );
}
