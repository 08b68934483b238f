"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { describeError, useTRPC } from "../../_trpc/client";

/** An invitation link opened by a signed-in person: where it leads, and joining with one click. */
export function InviteAccept({ token }: { token: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const info = useQuery(trpc.team.inviteInfo.queryOptions({ token }, { retry: false }));
  const accept = useMutation(
    trpc.team.acceptInvite.mutationOptions({
      onSuccess: (joined) => router.push(`/projects?team=${encodeURIComponent(joined.teamId)}`),
    }),
  );
  if (info.error)
    return (
      <section className="card" role="alert" data-testid="invite-problem">
        <h2>This invitation cannot be used</h2>
        <p>{describeError(info.error)}</p>
        <Link href="/projects">Back to your projects</Link>
      </section>
    );
  if (!info.data) return <p className="muted">Reading the invitation…</p>;
  const { team, role, problem, memberAs } = info.data;
  return (
    <section className="card narrow" aria-label="Invitation" data-testid="invite">
      <h2>
        Join <span data-testid="invite-team">{team.name}</span>
      </h2>
      {memberAs ? (
        <p data-testid="invite-already">
          You are already in this team as <strong>{memberAs}</strong>.{" "}
          <Link href={`/projects?team=${encodeURIComponent(team.id)}`}>Open its projects</Link>
        </p>
      ) : problem ? (
        <p role="alert" data-testid="invite-problem">
          {problem}
        </p>
      ) : (
        <>
          <p>
            You are invited as <strong data-testid="invite-role">{role}</strong>.{" "}
            {role === "viewer"
              ? "Viewers watch sessions and replays; they cannot start tasks or approve."
              : "You will see the team's projects and sessions."}
          </p>
          <button
            type="button"
            className="primary"
            data-testid="accept-invite"
            disabled={accept.isPending}
            onClick={() => accept.mutate({ token })}
          >
            {accept.isPending ? "Joining…" : `Join ${team.name}`}
          </button>
          {accept.error && (
            <p role="alert" className="error">
              {describeError(accept.error)}
            </p>
          )}
        </>
      )}
    </section>
  );
}
