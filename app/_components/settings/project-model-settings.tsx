"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { describeError, useTRPC } from "../../_trpc/client";
import { ModelSettingsForm } from "./model-settings-form";
import { ResolvedSettings } from "./resolved-settings";

/** The project page's "Model" section: the project's own settings and what runs will use. */
export function ProjectModelSettings({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useQuery(trpc.settings.project.queryOptions({ projectId }));
  const save = useMutation(
    trpc.settings.updateProject.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.settings.project.queryKey({ projectId }) }),
    }),
  );
  const test = useMutation(trpc.settings.testProjectConnection.mutationOptions());

  return (
    <section className="card" aria-label="Model settings" data-testid="project-model-settings">
      <h2>Model</h2>
      {view.error && <p className="error">{describeError(view.error)}</p>}
      {view.data && (
        <>
          <ResolvedSettings rows={view.data.resolved} note={view.data.note} keyError={view.data.keyError} />
          <h3>This project</h3>
          <p className="muted small">
            Empty fields inherit from the{" "}
            <Link href={`/teams/${view.data.teamId}/settings`} data-testid="team-settings-link">
              team settings
            </Link>
            .
          </p>
          <ModelSettingsForm
            scopeLabel="Project"
            stored={view.data.settings}
            canEdit={view.data.canEdit}
            saving={save.isPending}
            testing={test.isPending}
            error={save.error ? describeError(save.error) : test.error ? describeError(test.error) : null}
            testResult={test.data ?? null}
            onSave={(settings) => save.mutateAsync({ projectId, settings })}
            onTest={(settings) => test.mutate({ projectId, settings })}
          />
        </>
      )}
    </section>
  );
}
