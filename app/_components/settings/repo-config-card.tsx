"use client";

import { useQuery } from "@tanstack/react-query";
import { describeError, useTRPC } from "../../_trpc/client";

const SOURCE_LABELS: Record<string, string> = {
  repo: ".arbor/config.yaml (default branch)",
  user: "you (your own settings)",
  run: "this run",
  environment: "server environment",
  server: "server (environment or defaults)",
  project: "project settings",
  detected: "detected from the lock file",
  team: "team settings",
  default: "default",
};

/**
 * What the repository's `.arbor/config.yaml` on the default branch sets for this project's runs
 * (issue #20.3): each setting it overrides, or the problem that made the server skip it.
 */
export function RepoConfigCard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const layers = useQuery(trpc.settings.layers.queryOptions({ projectId }));
  if (layers.error) return <p className="error">{describeError(layers.error)}</p>;
  if (!layers.data) return null;
  const { repoConfig, model, checkpoints, run, ignored, setup } = layers.data;
  // The setup command is proposed by its source and runs only once a person approved its exact text.
  const setupRow = setup.command
    ? [
        {
          key: "setup.command",
          value: `${setup.command} (${setup.approved ? "approved" : "not approved yet: see Network and setup"})`,
          source: setup.source ?? "default",
        },
      ]
    : [];
  // Every setting the project's runs use, with the layer it came from (issue #20.3).
  const every = [
    ...model.map((row) => ({ key: `model.${row.field}`, value: row.value, source: row.source as string })),
    ...checkpoints.map((row) => ({ key: `checkpoints.${row.field}`, value: row.value, source: row.source })),
    ...run.map((row) => ({ key: row.key, value: row.value, source: row.source as string })),
    ...setupRow,
  ];
  const fromRepo = [
    ...model
      .filter((row) => row.source === "repo")
      .map((row) => ({ key: `model.${row.field}`, value: row.value })),
    ...checkpoints
      .filter((row) => row.source === "repo")
      .map((row) => ({ key: `checkpoints.${row.field}`, value: row.value })),
    ...run.filter((row) => row.source === "repo").map((row) => ({ key: row.key, value: row.value })),
    ...setupRow.filter((row) => row.source === "repo"),
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
      {ignored.length > 0 && (
        <>
          <h3>Ignored: looser than the layer below</h3>
          <p className="muted small">
            A repository may only make runs stricter (the default branch is whatever an import brought in).
          </p>
          <ul className="list" data-testid="repo-config-ignored">
            {ignored.map((row) => (
              <li key={`${row.layer}:${row.key}`} data-testid={`repo-config-ignored-${row.key}`}>
                <span>
                  {row.key}: <code>{row.value}</code>
                </span>
                <span className="badge warn">ignored: {row.reason}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <details data-testid="settings-sources">
        <summary>Every setting runs use, with its source</summary>
        <table className="small">
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Value</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {every.map((row) => (
              <tr key={row.key} data-testid={`setting-${row.key}`}>
                <td>
                  <code>{row.key}</code>
                </td>
                <td>{row.value}</td>
                <td>{SOURCE_LABELS[row.source] ?? row.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
