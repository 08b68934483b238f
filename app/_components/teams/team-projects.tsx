"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";
import { ProjectList } from "../project-list";

/**
 * The projects page: choose one of your teams (its projects are listed below it), or start a new
 * team. The chosen team is in the URL (`?team=`), so a link or a reload keeps it.
 */
export function TeamProjects({ requestedTeamId }: { requestedTeamId: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const teams = useQuery(trpc.team.list.queryOptions());

  if (teams.error)
    return (
      <p role="alert" className="error">
        {describeError(teams.error)}
      </p>
    );
  if (!teams.data) return <p className="muted">Loading your teams…</p>;
  const team = teams.data.find((candidate) => candidate.id === requestedTeamId) ?? teams.data[0];

  return (
    <div className="stack">
      <section className="card" aria-label="Team">
        <div className="row">
          <label>
            Team
            <select
              value={team?.id ?? ""}
              onChange={(event) => router.push(`/projects?team=${encodeURIComponent(event.target.value)}`)}
              data-testid="team-select"
            >
              {teams.data.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name} ({candidate.role})
                </option>
              ))}
            </select>
          </label>
          {team && (
            <Link href={`/teams/${team.id}`} data-testid="team-members-link">
              Members{team.members > 1 ? ` (${team.members})` : ""} and invitations
            </Link>
          )}
          {team && (
            <Link href={`/teams/${team.id}/settings`} data-testid="team-model-settings-link">
              Model settings
            </Link>
          )}
          {team && (
            <Link href={`/dashboard?team=${encodeURIComponent(team.id)}`} data-testid="team-dashboard-link">
              Dashboard
            </Link>
          )}
        </div>
        <NewTeamForm />
      </section>
      {team ? (
        <ProjectList team={team} />
      ) : (
        <p className="muted" data-testid="no-team">
          You are not in any team. Start one above, or open an invitation link someone sent you.
        </p>
      )}
    </div>
  );
}

function NewTeamForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const create = useMutation(
    trpc.team.create.mutationOptions({
      onSuccess: async (team) => {
        await queryClient.invalidateQueries({ queryKey: trpc.team.list.queryKey() });
        setOpen(false);
        router.push(`/projects?team=${encodeURIComponent(team.id)}`);
      },
    }),
  );
  if (!open)
    return (
      <button type="button" className="link" onClick={() => setOpen(true)} data-testid="new-team">
        New team…
      </button>
    );
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate({ name: String(new FormData(event.currentTarget).get("name") ?? "") });
  }
  return (
    <form onSubmit={submit} className="row" aria-label="New team">
      <label>
        Team name
        <input name="name" required maxLength={100} data-testid="team-name" />
      </label>
      <button type="submit" className="secondary" disabled={create.isPending} data-testid="create-team">
        {create.isPending ? "Creating…" : "Create team"}
      </button>
      <button type="button" className="link" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {create.error && (
        <p role="alert" className="error">
          {describeError(create.error)}
        </p>
      )}
    </form>
  );
}
