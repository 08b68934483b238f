"use client";

import "./project.css";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { refusal } from "@/server/domain/vocabulary/team-roles";
import { useTRPC } from "../../_trpc/client";
import { CheckpointSettings } from "../checkpoint-settings";
import { IntentsCard } from "../intents-card";
import { McpServerSettings } from "../mcp-server-settings";
import { NetworkSetupSettings } from "../network-setup-settings";
import { NotFound } from "../not-found";
import { ResourceSettings } from "../resource-settings";
import { SandboxSettings } from "../sandbox-settings";
import { ProjectModelSettings } from "../settings/project-model-settings";
import { RepoConfigCard } from "../settings/repo-config-card";
import { DeleteProject } from "./delete-project";
import { RemoteSettings } from "./remote-settings";

const SECTIONS = [
  { id: "repo-config", label: "Repository settings" },
  { id: "model", label: "Model" },
  { id: "checkpoints", label: "Checkpoints" },
  { id: "intents", label: "Intents" },
  { id: "sandbox", label: "Sandbox" },
  { id: "network", label: "Network and setup" },
  { id: "remote", label: "Git remote" },
  { id: "mcp", label: "MCP tool servers" },
  { id: "delete", label: "Delete project" },
] as const;

/** The project's expert settings, in sections with a table of contents; the team's are on its page. */
export function ProjectSettingsView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const project = useQuery(trpc.project.getById.queryOptions({ projectId }));
  if (project.error) return <NotFound what="Project" error={project.error} />;
  if (!project.data) return <p className="muted">Loading project settings…</p>;
  const data = project.data;
  return (
    <div className="stack">
      <div className="project-head">
        <nav className="breadcrumbs" aria-label="Breadcrumbs">
          <Link href="/projects">Projects</Link> /{" "}
          <Link href={`/projects/${projectId}`} data-testid="settings-project-link">
            {data.name}
          </Link>{" "}
          / <span data-testid="settings-title">Settings</span>
        </nav>
        <Link href={`/teams/${data.teamId}/settings`} className="small">
          Team settings (models and keys for every project) →
        </Link>
      </div>
      <div className="settings-layout">
        <nav className="settings-nav" aria-label="Settings sections">
          {SECTIONS.map((section) => (
            <a key={section.id} href={`#${section.id}`}>
              {section.label}
            </a>
          ))}
        </nav>
        <div className="stack">
          <div id="repo-config" className="settings-section" data-testid="settings-repo-config">
            <RepoConfigCard projectId={projectId} />
          </div>
          <div id="model" className="settings-section" data-testid="settings-model">
            <ProjectModelSettings projectId={projectId} />
          </div>
          <div id="checkpoints" className="settings-section" data-testid="settings-checkpoints">
            <CheckpointSettings projectId={projectId} policy={data.checkpoints} />
          </div>
          <div id="intents" className="settings-section" data-testid="settings-intents">
            <IntentsCard projectId={projectId} />
          </div>
          <div id="sandbox" className="settings-section" data-testid="settings-sandbox">
            <SandboxSettings projectId={projectId} canChange={data.permissions.settings} />
            <ResourceSettings projectId={projectId} resources={data.resources} />
          </div>
          <div id="network" className="settings-section" data-testid="settings-network">
            <NetworkSetupSettings projectId={projectId} canEdit={data.permissions.settings} />
          </div>
          <div id="remote" className="settings-section" data-testid="settings-remote">
            <RemoteSettings projectId={projectId} canEdit={data.permissions.settings} />
          </div>
          <div id="mcp" className="settings-section" data-testid="settings-mcp">
            <McpServerSettings projectId={projectId} canEdit={data.permissions.settings} />
          </div>
          <div id="delete" className="settings-section" data-testid="settings-delete">
            <DeleteProject
              project={{ id: projectId, name: data.name, teamId: data.teamId }}
              canDelete={data.permissions.deleteProject}
              refusal={refusal(data.role, "deleteProject")}
            />
          </div>
        </div>
      </div>
    </div>
  );
}
