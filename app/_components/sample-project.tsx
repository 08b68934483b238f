"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { SAMPLE_PROJECTS } from "@/server/domain/vocabulary/sample-projects";
import { describeError, useTRPC } from "../_trpc/client";

const SAMPLE = SAMPLE_PROJECTS["node-sum"];

/**
 * A first task that works in a minute (issue #17.3): one click makes a sample project with a failing
 * test, and opens it with the suggested task in the task box.
 */
export function SampleProjectCard({ teamId }: { teamId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.project.createSample.mutationOptions({
      onSuccess: async (project) => {
        await queryClient.invalidateQueries({ queryKey: trpc.project.list.queryKey({ teamId }) });
        router.push(`/projects/${project.id}?task=${encodeURIComponent(project.task)}`);
      },
    }),
  );
  return (
    <section className="card" aria-label="Sample project" data-testid="sample-project">
      <h2>Try it on a sample</h2>
      <p className="muted small">
        {SAMPLE.about} Its suggested first task, <code>{SAMPLE.task}</code>, runs on the built-in offline
        model: the test is red before the work and green after it.
      </p>
      {create.error && (
        <p role="alert" className="error" data-testid="sample-project-error">
          {describeError(create.error)}
        </p>
      )}
      <button
        type="button"
        className="primary"
        disabled={create.isPending}
        onClick={() => create.mutate({ teamId, sample: "node-sum" })}
        data-testid="create-sample-project"
      >
        {create.isPending ? "Creating…" : "Create the sample project"}
      </button>
    </section>
  );
}
