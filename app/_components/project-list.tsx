"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { can, type Role, refusal } from "@/server/domain/vocabulary/team-roles";
import { describeError, useTRPC } from "../_trpc/client";
import {
  type CredentialDraft,
  credentialInput,
  EMPTY_CREDENTIAL,
  RemoteCredentialFields,
} from "./project/remote-credential-fields";
import { SampleProjectCard } from "./sample-project";

/** The chosen team's projects, and a form to add one when the caller's role may. */
export function ProjectList({ team }: { team: { id: string; name: string; role: Role } }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const projects = useQuery(trpc.project.list.queryOptions({ teamId: team.id }));
  const create = useMutation(
    trpc.project.create.mutationOptions({
      onSuccess: async (project) => {
        await queryClient.invalidateQueries({ queryKey: trpc.project.list.queryKey({ teamId: team.id }) });
        router.push(`/projects/${project.id}`);
      },
    }),
  );
  const [importing, setImporting] = useState(false);
  const [credential, setCredential] = useState<CredentialDraft>(EMPTY_CREDENTIAL);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const sourceUrl = String(form.get("sourceUrl") ?? "").trim();
    create.mutate({
      teamId: team.id,
      name: String(form.get("name") ?? ""),
      sourceUrl: importing && sourceUrl ? sourceUrl : undefined,
      credential: importing && sourceUrl ? credentialInput(credential) : undefined,
    });
  }

  return (
    <div className="stack">
      {!can(team.role, "createProject") && (
        <p className="muted" role="note" data-testid="cannot-create-project">
          {refusal(team.role, "createProject")}
        </p>
      )}
      {can(team.role, "createProject") && <SampleProjectCard teamId={team.id} />}
      {can(team.role, "createProject") && (
        <section className="card">
          <h2>New project</h2>
          <form onSubmit={submit} className="stack" aria-label="New project">
            <label>
              Name
              <input name="name" required maxLength={100} data-testid="project-name" />
            </label>
            <label className="inline">
              <input
                type="checkbox"
                checked={importing}
                onChange={(event) => setImporting(event.target.checked)}
                data-testid="project-import-toggle"
              />
              Import from a git repository
            </label>
            {importing && (
              <label>
                Repository URL
                <input
                  name="sourceUrl"
                  placeholder="https://github.com/you/repo.git or file:///path/to/repo"
                  data-testid="project-source"
                />
              </label>
            )}
            {importing && (
              <RemoteCredentialFields value={credential} onChange={setCredential} idPrefix="project-import" />
            )}
            {create.error && (
              <p role="alert" className="error" data-testid="project-error">
                {describeError(create.error)}
              </p>
            )}
            <button
              type="submit"
              className="primary"
              disabled={create.isPending}
              data-testid="create-project"
            >
              {create.isPending ? (importing ? "Cloning…" : "Creating…") : "Create project"}
            </button>
          </form>
        </section>
      )}
      <section className="card">
        <h2>Projects of {team.name}</h2>
        {projects.isPending && <p className="muted">Loading projects…</p>}
        {projects.error && (
          <p role="alert" className="error">
            {describeError(projects.error)}
          </p>
        )}
        {projects.data?.length === 0 && (
          <p className="muted" data-testid="projects-empty">
            No projects in this team yet.
            {can(team.role, "createProject")
              ? " Create the sample, an empty one or import a repository above, then give the agent a task."
              : ""}
          </p>
        )}
        <ul className="list" data-testid="project-list">
          {projects.data?.map((project) => (
            <li key={project.id}>
              <Link href={`/projects/${project.id}`} data-testid="project-link">
                {project.name}
              </Link>
              <span className="muted small">{project.sourceUrl ?? "empty project"}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
