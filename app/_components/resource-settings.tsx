"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { SandboxResources } from "@/server/domain/events/bodies/sandbox";
import type { ProjectResources } from "@/server/domain/vocabulary/sandbox-resources";
import { describeError, useTRPC } from "../_trpc/client";

type Key = keyof ProjectResources;
type Bounds = Record<Key, number>;

const FIELDS: { key: Key; label: string; unit: string; step: number; testid: string }[] = [
  { key: "cpus", label: "CPUs", unit: "", step: 0.25, testid: "resource-cpus" },
  { key: "memoryMb", label: "Memory", unit: "MB", step: 64, testid: "resource-memory" },
  { key: "pids", label: "Processes", unit: "", step: 32, testid: "resource-pids" },
  { key: "workspaceMb", label: "/workspace size", unit: "MB", step: 64, testid: "resource-workspace" },
];

/**
 * The project's sandbox resources, each within the server's cap (shown next to it). An empty field
 * takes the server's default. The server checks every value again and names each one over its cap.
 */
export function ResourceSettings({
  projectId,
  resources,
}: {
  projectId: string;
  resources: { own: ProjectResources; effective: SandboxResources; defaults: Bounds; caps: Bounds };
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Record<Key, string>>(() => ({
    cpus: resources.own.cpus?.toString() ?? "",
    memoryMb: resources.own.memoryMb?.toString() ?? "",
    pids: resources.own.pids?.toString() ?? "",
    workspaceMb: resources.own.workspaceMb?.toString() ?? "",
  }));
  const save = useMutation(
    trpc.project.updateResources.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.project.getById.queryKey({ projectId }) }),
    }),
  );
  const parsed: ProjectResources = {};
  for (const field of FIELDS) {
    const text = draft[field.key].trim();
    if (text !== "") parsed[field.key] = Number(text);
  }
  return (
    <section className="card" aria-label="Sandbox resources">
      <h2>Sandbox resources</h2>
      <p className="muted small">
        Limits of this project's session sandboxes. Empty: the server's default. Applies to sandboxes made
        from now on; a running session keeps its own.
      </p>
      <div className="row">
        {FIELDS.map((field) => (
          <label key={field.key}>
            {field.label}
            {field.unit ? ` (${field.unit})` : ""}
            <input
              type="number"
              inputMode="decimal"
              min={0}
              step={field.step}
              max={resources.caps[field.key]}
              placeholder={`default ${resources.defaults[field.key]}`}
              value={draft[field.key]}
              onChange={(event) => setDraft({ ...draft, [field.key]: event.target.value })}
              data-testid={field.testid}
            />
            <span className="muted small">up to {resources.caps[field.key]}</span>
          </label>
        ))}
        <button
          type="button"
          className="secondary"
          disabled={save.isPending}
          onClick={() => save.mutate({ projectId, resources: parsed })}
          data-testid="save-resources"
        >
          {save.isPending ? "Saving…" : "Save"}
        </button>
        {save.isSuccess && !save.isPending && (
          <span className="muted small" data-testid="resources-saved">
            Saved: new sessions get {resources.effective.cpus} CPU, {resources.effective.memoryMb} MB,{" "}
            {resources.effective.pids} processes, {resources.effective.workspaceMb} MB of /workspace.
          </span>
        )}
      </div>
      {save.error && (
        <p role="alert" className="error" data-testid="resources-error">
          {describeError(save.error)}
        </p>
      )}
    </section>
  );
}
