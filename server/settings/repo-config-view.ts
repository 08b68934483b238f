import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type {
  CheckpointField,
  CheckpointSource,
  RepoConfigResult,
} from "@/server/domain/settings/repo-config";
import type { IgnoredSetting, TightSource } from "@/server/domain/settings/repo-tighten";
import type { RepoRunSettings } from "./repo-run-settings";

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

/** One run or sandbox setting with where it came from (the repository's file, the project, the server). */
export interface TightRow {
  key: string;
  value: string;
  source: TightSource;
}

const shown = (value: unknown): string =>
  value === null || value === undefined
    ? "unlimited"
    : Array.isArray(value)
      ? value.join(", ") || "(none)"
      : String(value);

/**
 * The limits, budget, sandbox resources and network a project's runs use, one row per setting, for
 * the settings page and `arbor config list --server`; the settings the file set but that did not
 * count (looser than the layer below), with the reason.
 */
export function runSettingRows(settings: RepoRunSettings): { rows: TightRow[]; ignored: IgnoredSetting[] } {
  const { limits, budget, resources, egress, checkpoints } = settings;
  const values: Record<string, unknown> = {
    "limits.maxDepth": limits.value.maxDepth,
    "limits.maxCyclesPerIntention": limits.value.maxCyclesPerIntention,
    "limits.maxIterations": limits.value.maxIterations,
    "limits.wallClockSeconds": Math.round(limits.value.wallClockMs / 1000),
    "budgets.maxCostUsd": budget.value?.maxCostUsd ?? null,
    "budgets.maxTokens": budget.value?.maxTokens ?? null,
    "sandbox.cpus": resources.value.cpus,
    "sandbox.memoryMb": resources.value.memoryMb,
    "sandbox.pids": resources.value.pids,
    "sandbox.workspaceMb": resources.value.workspaceMb,
    "network.setup.mode": egress.value.setup.mode,
    "network.setup.getHeadOnly": egress.value.setup.getHeadOnly,
    "network.agent.mode": egress.value.agent.mode,
    "network.agent.getHeadOnly": egress.value.agent.getHeadOnly,
    "network.allowList": egress.value.allowList,
  };
  const sources = { ...limits.sources, ...budget.sources, ...resources.sources, ...egress.sources };
  return {
    rows: Object.entries(values).map(([key, value]) => ({
      key,
      value: shown(value),
      source: sources[key] ?? "server",
    })),
    ignored: [
      ...checkpoints.ignored,
      ...limits.ignored,
      ...budget.ignored,
      ...resources.ignored,
      ...egress.ignored,
    ],
  };
}
