"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { describeError, useTRPC } from "../../_trpc/client";
import { NotFound } from "../not-found";
import { ModelSettingsForm } from "./model-settings-form";

/** The team settings page: the model every project of the team uses unless it sets its own. */
export function TeamSettingsView({ teamId }: { teamId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useQuery(trpc.settings.team.queryOptions({ teamId }));
  const save = useMutation(
    trpc.settings.updateTeam.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.settings.team.queryKey({ teamId }) }),
    }),
  );
  const test = useMutation(trpc.settings.testTeamConnection.mutationOptions());

  if (view.error) return <NotFound what="Team" error={view.error} />;
  if (!view.data) return <p className="muted">Loading team settings…</p>;
  return (
    <div className="stack">
      <nav className="breadcrumbs">
        <Link href="/projects">Projects</Link> / <span data-testid="team-title">{view.data.team.name}</span> /
        Settings
      </nav>
      <section className="card" aria-label="Team model settings">
        <h2>Model</h2>
        <p className="muted small">
          The team's default model. A project can override any field, and the server's environment
          (ARBOR_MODEL_*) overrides both.
        </p>
        <ModelSettingsForm
          scopeLabel="Team"
          stored={view.data.settings}
          canEdit={view.data.canEdit}
          saving={save.isPending}
          testing={test.isPending}
          error={save.error ? describeError(save.error) : test.error ? describeError(test.error) : null}
          testResult={test.data ?? null}
          onSave={(settings) => save.mutateAsync({ teamId, settings })}
          onTest={(settings) => test.mutate({ teamId, settings })}
        />
      </section>
    </div>
  );
}
