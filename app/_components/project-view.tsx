"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { describeError, useTRPC } from "../_trpc/client";
import { CheckpointSettings } from "./checkpoint-settings";
import { IntentsCard } from "./intents-card";
import { NetworkSetupSettings } from "./network-setup-settings";
import { NotFound } from "./not-found";
import { ImportSession, ProjectMemory } from "./project-capture";
import { ProjectInstructionsCard } from "./project-instructions-card";
import { ResourceSettings } from "./resource-settings";
import { SandboxSettings } from "./sandbox-settings";
import { RunStatusBadge } from "./session/status-badge";
import { SwitchBar } from "./session/switch-bar";
import { TaskForm } from "./session/task-form";
import { useModeSwitches } from "./session/use-mode-switches";
import { useModelPicker } from "./session/use-model-picker";
import { ProjectModelSettings } from "./settings/project-model-settings";

export function ProjectView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const project = useQuery(trpc.project.getById.queryOptions({ projectId }));
  const sessions = useQuery(trpc.session.list.queryOptions({ projectId }));
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
      <nav className="breadcrumbs">
        <Link href="/projects">Projects</Link> / <span data-testid="project-title">{project.data.name}</span>
      </nav>
      <section className="card">
        <h2>Give the agent a task</h2>
        <p className="muted small">
          Agent mode: the agent proposes a decomposition for you to approve, then runs each step in a sandbox
          container of its own. Chat mode: ask about the project; it is answered with read-only tools.
        </p>
        <SwitchBar switches={switches} onChange={change} models={picker.models} />
        <TaskForm
          pending={create.isPending || !loaded}
          error={create.error ? describeError(create.error) : null}
          disabled={picker.problem}
          submitLabel={switches.mode === "chat" ? "Ask" : "Start"}
          onSubmit={(task) =>
            create.mutate({
              projectId,
              task,
              mode: switches.mode,
              reasoning: switches.reasoning,
              model: picker.model,
            })
          }
        />
      </section>
      <section className="card">
        <h2>Sessions</h2>
        {sessions.data?.length === 0 && (
          <p className="muted">No sessions yet: the first task you give starts one.</p>
        )}
        <ul className="list" data-testid="session-list">
          {sessions.data?.map((session) => (
            <li key={session.id}>
              <Link href={`/projects/${projectId}/sessions/${session.id}`}>{session.title}</Link>
              {session.runs[0] && <RunStatusBadge status={session.runs[0].status} />}
            </li>
          ))}
        </ul>
      </section>
      <ProjectInstructionsCard projectId={projectId} />
      <IntentsCard projectId={projectId} />
      <CheckpointSettings projectId={projectId} policy={project.data.checkpoints} />
      <ResourceSettings projectId={projectId} resources={project.data.resources} />
      <NetworkSetupSettings projectId={projectId} canEdit={project.data.permissions.settings} />
      <ProjectModelSettings projectId={projectId} />
      <SandboxSettings projectId={projectId} canChange={project.data.permissions.settings} />
      <section className="card" aria-label="Import session">
        <h2>Import session</h2>
        <ImportSession projectId={projectId} />
      </section>
      <section className="card" aria-label="Project memory">
        <h2>Project memory</h2>
        <ProjectMemory projectId={projectId} />
      </section>
    </div>
  );
}
