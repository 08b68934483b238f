"use client";

import "./project/project.css";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { describeError, useTRPC } from "../_trpc/client";
import { NotFound } from "./not-found";
import { RepositoryCard } from "./project/repository-card";
import { SetupNotice } from "./project/setup-notice";
import { ImportSession, ProjectMemory } from "./project-capture";
import { ProjectInstructionsCard } from "./project-instructions-card";
import { SwitchBar } from "./session/switch-bar";
import { TaskForm } from "./session/task-form";
import { useModeSwitches } from "./session/use-mode-switches";
import { useModelPicker } from "./session/use-model-picker";
import { SessionListItem } from "./session-list-item";

/**
 * The project page is for working: the task box, the sessions (each with its latest run's state) and
 * what the repository holds. Its settings are on a page of their own (project-settings-view.tsx).
 */
/** Statuses that change without the person on this page doing anything. */
const LIVE_STATUSES = new Set<string>(["WORKING", "WAITING"]);

export function ProjectView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const project = useQuery(trpc.project.getById.queryOptions({ projectId }));
  // Always asked again on arrival: coming back from a session, its latest run's state has moved on.
  // Kept current while the page is open: every few seconds while a run works or waits, rarely otherwise
  // (a run started elsewhere — another tab, a teammate, the CLI — shows up within a quarter minute).
  const sessions = useQuery({
    ...trpc.session.list.queryOptions({ projectId }),
    refetchOnMount: "always",
    refetchInterval: (query) =>
      query.state.data?.some((session) => session.latest && LIVE_STATUSES.has(session.latest.shown))
        ? 3_000
        : 15_000,
  });
  const { switches, loaded, change } = useModeSwitches(projectId);
  const picker = useModelPicker(projectId, switches.model);
  const create = useMutation(
    trpc.session.create.mutationOptions({
      onSuccess: ({ sessionId }) => router.push(`/projects/${projectId}/sessions/${sessionId}`),
    }),
  );

  if (project.error) return <NotFound what="Project" error={project.error} />;
  if (!project.data) return <p className="muted">Loading project…</p>;

  return (
    <div className="stack">
      <div className="project-head">
        <nav className="breadcrumbs" aria-label="Breadcrumbs">
          <Link href="/projects">Projects</Link> /{" "}
          <span data-testid="project-title">{project.data.name}</span>
        </nav>
        <Link href={`/projects/${projectId}/settings`} data-testid="project-settings-link">
          Project settings: model, checkpoints, intents, sandbox, network →
        </Link>
      </div>
      <div className="project-columns">
        <div className="stack">
          <SetupNotice projectId={projectId} canApprove={project.data.permissions.settings} />
          <section className="card" aria-label="New task">
            <h2>Give the agent a task</h2>
            <p className="muted small">
              Agent mode: the agent proposes a decomposition for you to approve, then runs each step in a
              sandbox container of its own. Chat mode: ask about the project; it is answered with read-only
              tools.
            </p>
            <SwitchBar switches={switches} onChange={change} models={picker.models} />
            <TaskForm
              pending={create.isPending || !loaded}
              error={create.error ? describeError(create.error) : null}
              disabled={picker.problem}
              submitLabel={switches.mode === "chat" ? "Ask" : "Start"}
              offline={picker.offline && switches.mode === "agent"}
              onSubmit={(task) =>
                create.mutateAsync({
                  projectId,
                  task,
                  mode: switches.mode,
                  reasoning: switches.reasoning,
                  model: picker.model,
                })
              }
            />
          </section>
          <section className="card" aria-label="Sessions">
            <h2>Sessions</h2>
            {sessions.error && (
              <p role="alert" className="error small">
                Could not list the sessions: {describeError(sessions.error)} Reload the page to try again.
              </p>
            )}
            {sessions.data?.length === 0 && (
              <p className="muted">No sessions yet: the first task you give starts one.</p>
            )}
            <ul className="list session-rows" data-testid="session-list">
              {sessions.data?.map((session) => (
                <li key={session.id} data-testid="session-row">
                  <SessionListItem projectId={projectId} session={session} />
                </li>
              ))}
            </ul>
          </section>
        </div>
        <div className="stack">
          <ProjectInstructionsCard projectId={projectId} />
          <RepositoryCard projectId={projectId} />
          <section className="card" aria-label="Import session">
            <h2>Import session</h2>
            <ImportSession projectId={projectId} />
          </section>
          <section className="card" aria-label="Project memory">
            <h2>Project memory</h2>
            <ProjectMemory projectId={projectId} />
          </section>
        </div>
      </div>
    </div>
  );
}
