"use client";

import { useState } from "react";

/** What the credential fields hold; `kind` "none" sends no credential. */
export interface CredentialDraft {
  kind: "none" | "token" | "ssh-key";
  username: string;
  secret: string;
}

export const EMPTY_CREDENTIAL: CredentialDraft = { kind: "none", username: "", secret: "" };

/** The draft as the API's credential input: a "set" when one was typed, else undefined. */
export function credentialInput(draft: CredentialDraft) {
  if (draft.kind === "token" && draft.secret.trim())
    return {
      action: "set" as const,
      kind: "token" as const,
      token: draft.secret,
      ...(draft.username.trim() ? { username: draft.username.trim() } : {}),
    };
  if (draft.kind === "ssh-key" && draft.secret.trim())
    return { action: "set" as const, kind: "ssh-key" as const, privateKey: draft.secret };
  return undefined;
}

/**
 * A credential for a private remote (issue #21.3): an HTTPS token (with an optional user name) or an
 * SSH deploy key. Typed once; the server stores it encrypted and never shows it again.
 */
export function RemoteCredentialFields({
  value,
  onChange,
  idPrefix,
}: {
  value: CredentialDraft;
  onChange: (draft: CredentialDraft) => void;
  idPrefix: string;
}) {
  const [draft, setDraft] = useState(value);
  const update = (next: Partial<CredentialDraft>) => {
    const merged = { ...draft, ...next };
    setDraft(merged);
    onChange(merged);
  };
  return (
    <div className="stack">
      <label>
        Credential
        <select
          value={draft.kind}
          onChange={(event) => update({ kind: event.target.value as CredentialDraft["kind"], secret: "" })}
          data-testid={`${idPrefix}-credential-kind`}
        >
          <option value="none">None (a public repository)</option>
          <option value="token">HTTPS token</option>
          <option value="ssh-key">SSH deploy key</option>
        </select>
      </label>
      {draft.kind === "token" && (
        <div className="row">
          <label>
            User name (optional)
            <input
              value={draft.username}
              autoComplete="off"
              placeholder="x-access-token"
              onChange={(event) => update({ username: event.target.value })}
              data-testid={`${idPrefix}-credential-user`}
            />
          </label>
          <label>
            Token
            <input
              type="password"
              value={draft.secret}
              autoComplete="off"
              onChange={(event) => update({ secret: event.target.value })}
              data-testid={`${idPrefix}-credential-token`}
            />
          </label>
        </div>
      )}
      {draft.kind === "ssh-key" && (
        <label>
          Private deploy key
          <textarea
            rows={4}
            value={draft.secret}
            spellCheck={false}
            placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
            onChange={(event) => update({ secret: event.target.value })}
            data-testid={`${idPrefix}-credential-key`}
          />
        </label>
      )}
      {draft.kind !== "none" && (
        <p className="muted small">
          Stored encrypted; used only by the server's own git and GitHub calls, never in a sandbox. It is not
          shown again.
        </p>
      )}
    </div>
  );
}
