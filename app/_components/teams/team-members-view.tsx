"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";
import { NotFound } from "../not-found";
import { ApiTokensCard } from "./api-tokens-card";
import { TeamWebhooksCard } from "./team-webhooks-card";

const EXPIRY_DAYS = [1, 7, 30] as const;
type Role = "viewer" | "member" | "admin" | "owner";

/**
 * A team's members and invitation links. Everyone in the team sees who is in it; owners and admins
 * change roles, remove members and make links (an owner link only by an owner: the server decides,
 * the page only offers what `grantableRoles` allows). A link's token is shown once, when it is made.
 */
export function TeamMembersView({ teamId }: { teamId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const team = useQuery(trpc.team.getById.queryOptions({ teamId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.team.getById.queryKey({ teamId }) });
  const [link, setLink] = useState<{ url: string; role: Role } | null>(null);
  const invite = useMutation(
    trpc.team.createInvite.mutationOptions({
      onSuccess: (created) => {
        setLink({ url: `${window.location.origin}/invite/${created.token}`, role: created.role });
        return refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.team.revokeInvite.mutationOptions({ onSuccess: refresh }));
  const changeRole = useMutation(trpc.team.changeRole.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.team.removeMember.mutationOptions({ onSuccess: refresh }));
  const leave = useMutation(trpc.team.leave.mutationOptions({ onSuccess: () => router.push("/projects") }));
  const [role, setRole] = useState<Role>("member");
  const [days, setDays] = useState<number>(7);

  if (team.error) return <NotFound what="Team" error={team.error} />;
  if (!team.data) return <p className="muted">Loading the team…</p>;
  const { name, members, invites, grantableRoles, permissions } = team.data;
  const manage = permissions.manageMembers;
  const failed = [invite, revoke, changeRole, remove, leave].find((mutation) => mutation.error)?.error;
  return (
    <div className="stack">
      <nav className="breadcrumbs">
        <Link href={`/projects?team=${encodeURIComponent(teamId)}`}>Projects</Link> /{" "}
        <span data-testid="team-title">{name}</span> / Members
      </nav>
      {failed && (
        <p role="alert" className="error" data-testid="members-error">
          {describeError(failed)}
        </p>
      )}
      <section className="card" aria-label="Members">
        <h2>Members</h2>
        <ul className="plain" data-testid="members">
          {members.map((member) => (
            <li key={member.userId} data-testid="member" data-role={member.role}>
              <strong>{member.name ?? member.email}</strong>{" "}
              <span className="muted small">{member.email}</span>{" "}
              {manage && grantableRoles.includes(member.role) ? (
                <select
                  aria-label={`Role of ${member.name ?? member.email}`}
                  data-testid="member-role"
                  value={member.role}
                  onChange={(event) =>
                    changeRole.mutate({ teamId, userId: member.userId, role: event.target.value as Role })
                  }
                >
                  {grantableRoles.map((choice) => (
                    <option key={choice}>{choice}</option>
                  ))}
                </select>
              ) : (
                <span className="badge">{member.role}</span>
              )}{" "}
              {manage && grantableRoles.includes(member.role) && (
                <button type="button" onClick={() => remove.mutate({ teamId, userId: member.userId })}>
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
        {!team.data.personal && (
          <button type="button" data-testid="leave-team" onClick={() => leave.mutate({ teamId })}>
            Leave {name}
          </button>
        )}
      </section>
      {team.data.role !== "viewer" && <ApiTokensCard teamId={teamId} role={team.data.role} />}
      {manage && (
        <section className="card" aria-label="Invitations">
          <h2>Invite by link</h2>
          <p className="muted small">
            Whoever opens the link while signed in joins with its role. A link works once and expires.
          </p>
          <div className="row">
            <label>
              Role{" "}
              <select
                data-testid="invite-role-choice"
                value={role}
                onChange={(e) => setRole(e.target.value as Role)}
              >
                {grantableRoles.map((choice) => (
                  <option key={choice}>{choice}</option>
                ))}
              </select>
            </label>
            <label>
              Expires after{" "}
              <select
                aria-label="Expires after"
                value={days}
                onChange={(e) => setDays(Number(e.target.value))}
              >
                {EXPIRY_DAYS.map((choice) => (
                  <option key={choice} value={choice}>
                    {choice} {choice === 1 ? "day" : "days"}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="primary"
              data-testid="create-invite"
              disabled={invite.isPending}
              onClick={() => invite.mutate({ teamId, role, expiresInDays: days })}
            >
              Make a link
            </button>
          </div>
          {link && (
            <p data-testid="invite-link-box">
              Send this {link.role} link (shown once): <code data-testid="invite-link">{link.url}</code>{" "}
              <button type="button" onClick={() => navigator.clipboard?.writeText(link.url)}>
                Copy
              </button>
            </p>
          )}
          <ul className="plain" data-testid="open-invites">
            {invites.map((open) => (
              <li key={open.id} data-testid="open-invite">
                {open.role} link, expires {new Date(open.expiresAt).toLocaleDateString()}{" "}
                <button type="button" onClick={() => revoke.mutate({ teamId, inviteId: open.id })}>
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {permissions.manageWebhooks && <TeamWebhooksCard teamId={teamId} />}
    </div>
  );
}
