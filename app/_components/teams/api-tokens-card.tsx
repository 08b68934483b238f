"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { atLeast, ROLES, type Role } from "@/server/domain/vocabulary/team-roles";
import { describeError, useTRPC } from "../../_trpc/client";

const EXPIRY_CHOICES = [7, 30, 90, 365, null] as const;

/**
 * The caller's personal API tokens for this team (issue #20): for the `arbor` CLI and CI. A token
 * acts as its maker, limited to this team, optionally some projects, and a role no higher than theirs.
 * Its secret is shown once, when it is made; the server keeps only its hash.
 */
export function ApiTokensCard({ teamId, role }: { teamId: string; role: Role }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.apiToken.list.queryOptions({ teamId }));
  const projects = useQuery(trpc.project.list.queryOptions({ teamId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiToken.list.queryKey({ teamId }) });
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const create = useMutation(
    trpc.apiToken.create.mutationOptions({
      onSuccess: (token) => {
        setMade({ name: token.name, token: token.token });
        return refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.apiToken.revoke.mutationOptions({ onSuccess: refresh }));
  const roles = ROLES.filter((choice) => atLeast(role, choice));
  const [name, setName] = useState("");
  const [tokenRole, setTokenRole] = useState<Role>(atLeast(role, "member") ? "member" : role);
  const [days, setDays] = useState<number | null>(30);
  const [projectIds, setProjectIds] = useState<string[]>([]);
  const failed = [create, revoke].find((mutation) => mutation.error)?.error ?? tokens.error;

  return (
    <section className="card" aria-label="API tokens">
      <h2>API tokens</h2>
      <p className="muted small">
        For the <code>arbor</code> command line and CI: <code>arbor login</code> asks for one. A token acts as
        you, only in this team, with the role you choose (never above yours).
      </p>
      {failed && (
        <p role="alert" className="error" data-testid="api-token-error">
          {describeError(failed)}
        </p>
      )}
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate({ teamId, name, role: tokenRole, projectIds, expiresInDays: days });
        }}
      >
        <label>
          Token name{" "}
          <input
            data-testid="api-token-name"
            value={name}
            placeholder="laptop, CI…"
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label>
          Token role{" "}
          <select
            data-testid="api-token-role"
            value={tokenRole}
            onChange={(event) => setTokenRole(event.target.value as Role)}
          >
            {roles.map((choice) => (
              <option key={choice}>{choice}</option>
            ))}
          </select>
        </label>
        <label>
          Token projects{" "}
          <select
            multiple
            data-testid="api-token-projects"
            aria-describedby="api-token-projects-help"
            value={projectIds}
            onChange={(event) =>
              setProjectIds([...event.target.selectedOptions].map((option) => option.value))
            }
          >
            {projects.data?.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        </label>
        <span id="api-token-projects-help" className="muted small">
          None chosen: every project of the team.
        </span>
        <label>
          Token expires after{" "}
          <select
            data-testid="api-token-expiry"
            value={days ?? "never"}
            onChange={(event) => setDays(event.target.value === "never" ? null : Number(event.target.value))}
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice ?? "never"} value={choice ?? "never"}>
                {choice === null ? "never" : `${choice} days`}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" data-testid="create-api-token" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {made && (
        <p data-testid="api-token-made">
          Copy the token “{made.name}” now; it is not shown again:{" "}
          <code data-testid="api-token-secret">{made.token}</code>{" "}
          <button type="button" onClick={() => navigator.clipboard?.writeText(made.token)}>
            Copy
          </button>
        </p>
      )}
      <ul className="plain" data-testid="api-tokens">
        {tokens.data?.map((token) => (
          <li key={token.id} data-testid="api-token" data-revoked={token.revokedAt ? "true" : "false"}>
            <strong>{token.name}</strong> <code className="small">{token.prefix}…</code>{" "}
            <span className="badge">{token.role}</span>{" "}
            <span className="muted small">
              {token.projectIds.length > 0 ? `${token.projectIds.length} project(s)` : "all projects"}
              {" · "}
              {token.expiresAt ? `expires ${new Date(token.expiresAt).toLocaleDateString()}` : "no expiry"}
              {" · "}
              {token.lastUsedAt ? `last used ${new Date(token.lastUsedAt).toLocaleString()}` : "never used"}
            </span>{" "}
            {token.revokedAt ? (
              <span className="badge">revoked</span>
            ) : (
              <button type="button" onClick={() => revoke.mutate({ teamId, tokenId: token.id })}>
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
