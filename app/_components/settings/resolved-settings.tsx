import type { RouterOutputs } from "@/app/_trpc/router-types";

type ResolvedRow = RouterOutputs["settings"]["project"]["resolved"][number];

const SOURCE_LABELS = {
  run: "run override",
  environment: "environment",
  repo: ".arbor/config.yaml (default branch)",
  user: "you (your own settings)",
  project: "project",
  team: "team",
  default: "default",
} as const;

/** What a new run in this project will use, and which layer each value came from. */
export function ResolvedSettings({
  rows,
  note,
  keyError,
}: {
  rows: ResolvedRow[];
  note: string | null;
  keyError: string | null;
}) {
  return (
    <div className="stack">
      <p className="muted small">
        What new runs use. Precedence: run overrides, then the environment (ARBOR_MODEL_*), then the
        repository's .arbor/config.yaml on the default branch, then your own settings, then the project, then
        the team, then defaults.
      </p>
      <ul className="list" data-testid="resolved-settings">
        {rows.map((row) => (
          <li key={row.field} data-testid={`resolved-${row.field}`}>
            <span>
              {row.label}: <code>{row.value}</code>
            </span>
            <span className="badge info">from {SOURCE_LABELS[row.source]}</span>
          </li>
        ))}
      </ul>
      {note && <p className="muted small">{note}</p>}
      {keyError && (
        <p role="alert" className="error small" data-testid="resolved-key-error">
          {keyError}
        </p>
      )}
    </div>
  );
}
