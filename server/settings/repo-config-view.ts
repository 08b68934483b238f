import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type {
  CheckpointField,
  CheckpointSource,
  RepoConfigResult,
} from "@/server/domain/settings/repo-config";

/** One checkpoint setting as runs use it, with the layer it came from. */
export interface CheckpointRow {
  field: CheckpointField;
  value: string;
  source: CheckpointSource;
}

const text = (value: CheckpointPolicy[CheckpointField]): string =>
  Array.isArray(value)
    ? value
        .map((item) => (typeof item === "string" ? item : [item.program, ...item.args].join(" ")))
        .join(", ") || "(none)"
    : String(value);

export function checkpointRows(
  policy: CheckpointPolicy,
  sources: Record<CheckpointField, CheckpointSource>,
): CheckpointRow[] {
  return (Object.keys(sources) as CheckpointField[]).map((field) => ({
    field,
    value: text(policy[field]),
    source: sources[field],
  }));
}

/** The file's state for the settings page and the CLI: absent, used, or skipped and why. */
export function repoConfigStatus(result: RepoConfigResult): {
  status: RepoConfigResult["status"];
  problem: string | null;
} {
  return { status: result.status, problem: result.status === "invalid" ? result.problem : null };
}
