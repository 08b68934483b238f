"use client";

import { useQuery } from "@tanstack/react-query";
import { describeError, useTRPC } from "../../_trpc/client";

/**
 * What the repository's `.arbor/config.yaml` on the default branch sets for this project's runs
 * (issue #20.3): each setting it overrides, or the problem that made the server skip it.
 */
export function RepoConfigCard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const layers = useQuery(trpc.settings.layers.queryOptions({ projectId }));
  if (layers.error) return <p className="error">{describeError(layers.error)}</p>;
  if (!layers.data) return null;
  const { repoConfig, model, checkpoints } = layers.data;
  const fromRepo = [
    ...model
      .filter((row) => row.source === "repo")
      .map((row) => ({ key: `model.${row.field}`, value: row.value })),
    ...checkpoints
      .filter((row) => row.source === "repo")
      .map((row) => ({ key: `checkpoints.${row.field}`, value: row.value })),
  ];
  return (
    <section className="card" aria-label="Repository settings" data-testid="repo-config">
      <h2>Repository settings</h2>
      <p className="muted small">
        <code>.arbor/config.yaml</code> on the default branch. It beats the project and team settings (a run
        override and the environment beat it). Only the default branch counts: a session's branch never does.
      </p>
      {repoConfig.status === "absent" && (
        <p className="muted" data-testid="repo-config-absent">
          The default branch has no <code>.arbor/config.yaml</code>.
        </p>
      )}
      {repoConfig.problem && (
        <p role="alert" className="error small" data-testid="repo-config-problem">
          Not used: {repoConfig.problem}
        </p>
      )}
      {repoConfig.status === "ok" &&
        (fromRepo.length === 0 ? (
          <p className="muted">The file sets no setting the server uses (the CLI's keys only).</p>
        ) : (
          <ul className="list" data-testid="repo-config-settings">
            {fromRepo.map((row) => (
              <li key={row.key} data-testid={`repo-config-${row.key}`}>
                <span>
                  {row.key}: <code>{row.value}</code>
                </span>
                <span className="badge info">from .arbor/config.yaml (default branch)</span>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
