import type { SandboxResources } from "@/server/domain/events/bodies/sandbox";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { RivaLimits, RunBudget } from "@/server/domain/session/limits";
import type { EgressMode, EgressPhasePolicy, EgressSettings } from "@/server/domain/vocabulary/egress";
import type {
  CheckpointField,
  RepoBudgets,
  RepoCheckpoints,
  RepoLimits,
  RepoNetwork,
  RepoSandbox,
} from "./repo-config";

/**
 * The repository layer for everything but the model (issue #20.3), with one rule throughout: the
 * default branch is whatever an import brought in, so `.arbor/config.yaml` may only make a run
 * **stricter** than the layers below it (lower limits and budgets, smaller sandboxes, less network,
 * fewer pre-approvals). A looser value is not used: it is returned in `ignored` with the reason, so the
 * settings page and `arbor config list --server` can say why the file did not count. Pure: the layers
 * below are passed in already resolved.
 */

/** Where a value came from: the repository file, the project's settings, or the server (env/defaults). */
export type TightSource = "cli" | "user" | "repo" | "project" | "server";

export interface IgnoredSetting {
  /** The file's key, e.g. `limits.maxIterations`. */
  key: string;
  /**
   * Where the ignored value was set: the repository's file (absent, the default), your own settings
   * ("user") or the CLI's user file sent with the run ("cli").
   */
  layer?: "user" | "cli";
  value: string;
  reason: string;
}

export interface Tightened<T> {
  value: T;
  sources: Record<string, TightSource>;
  ignored: IgnoredSetting[];
}

const show = (value: unknown): string => (value === null ? "unlimited" : String(value));

/**
 * One number that may only go down: the repository's when it is at most the base (or the base has no
 * limit, `null`), otherwise the base with the repository's value ignored.
 */
function lower<T extends number | null>(
  key: string,
  base: T,
  baseSource: TightSource,
  repo: number | undefined,
  out: Tightened<unknown>,
): T | number {
  if (repo === undefined) {
    out.sources[key] = baseSource;
    return base;
  }
  if (base === null || repo <= base) {
    out.sources[key] = "repo";
    return repo;
  }
  out.sources[key] = baseSource;
  out.ignored.push({
    key,
    value: show(repo),
    reason: `higher than the ${baseSource}'s ${show(base)}: a repository may only lower it`,
  });
  return base;
}

/** Run limits: the server's (environment or defaults), each lowered by the repository. */
export function tightenLimits(server: RivaLimits, repo: RepoLimits | undefined): Tightened<RivaLimits> {
  const out: Tightened<RivaLimits> = { value: server, sources: {}, ignored: [] };
  const r = repo ?? {};
  const wallClockSeconds = lower(
    "limits.wallClockSeconds",
    Math.round(server.wallClockMs / 1000),
    "server",
    r.wallClockSeconds,
    out,
  );
  out.value = {
    maxDepth: lower("limits.maxDepth", server.maxDepth, "server", r.maxDepth, out),
    maxCyclesPerIntention: lower(
      "limits.maxCyclesPerIntention",
      server.maxCyclesPerIntention,
      "server",
      r.maxCyclesPerIntention,
      out,
    ),
    maxIterations: lower("limits.maxIterations", server.maxIterations, "server", r.maxIterations, out),
    wallClockMs:
      out.sources["limits.wallClockSeconds"] === "repo" ? wallClockSeconds * 1000 : server.wallClockMs,
  };
  return out;
}

/** The run's budget: the server's (model config), lowered by the repository, or set by it when unlimited. */
export function tightenBudget(
  server: RunBudget | null,
  repo: RepoBudgets | undefined,
): Tightened<RunBudget | null> {
  const out: Tightened<RunBudget | null> = { value: server, sources: {}, ignored: [] };
  const base = server ?? { maxCostUsd: null, maxTokens: null };
  const r = repo ?? {};
  const maxCostUsd = lower("budgets.maxCostUsd", base.maxCostUsd, "server", r.maxCostUsd, out);
  const maxTokens = lower("budgets.maxTokens", base.maxTokens, "server", r.maxTokens, out);
  out.value = maxCostUsd === null && maxTokens === null ? null : { maxCostUsd, maxTokens };
  return out;
}

const RESOURCE_FIELDS = ["cpus", "memoryMb", "pids", "workspaceMb"] as const;
type ResourceField = (typeof RESOURCE_FIELDS)[number];

/**
 * A session's sandbox resources: the project's within the server's caps (already applied), each made
 * smaller by the repository. `projectSet` names the fields the project chose (the rest are the server's).
 */
export function tightenResources(
  effective: SandboxResources,
  projectSet: ReadonlySet<string>,
  repo: RepoSandbox | undefined,
): Tightened<SandboxResources> {
  const out: Tightened<SandboxResources> = { value: effective, sources: {}, ignored: [] };
  const pick = <F extends ResourceField>(field: F) =>
    lower(
      `sandbox.${field}`,
      effective[field],
      projectSet.has(field) ? "project" : "server",
      repo?.[field],
      out,
    ) as SandboxResources[F];
  out.value = {
    cpus: pick("cpus"),
    memoryMb: pick("memoryMb"),
    pids: pick("pids"),
    workspaceMb: pick("workspaceMb"),
  };
  return out;
}

/**
 * A phase's mode from the repository counts only when it allows no more than the project's: the same
 * mode, Off, or anything when the project's is Open. (Package registries and a custom list do not
 * contain each other, so neither replaces the other.)
 */
function narrowerMode(project: EgressMode, repo: EgressMode): boolean {
  return repo === project || repo === "off" || project === "open";
}

function tightenPhase(
  phase: "setup" | "agent",
  project: EgressPhasePolicy,
  repo: RepoNetwork["setup"],
  baseSource: TightSource,
  out: Tightened<EgressSettings>,
): EgressPhasePolicy {
  const modeKey = `network.${phase}.mode`;
  const headKey = `network.${phase}.getHeadOnly`;
  let mode = project.mode;
  out.sources[modeKey] = baseSource;
  if (repo?.mode !== undefined) {
    if (narrowerMode(project.mode, repo.mode)) {
      mode = repo.mode;
      if (repo.mode !== project.mode) out.sources[modeKey] = "repo";
    } else
      out.ignored.push({
        key: modeKey,
        value: repo.mode,
        reason: `allows more than the ${baseSource}'s "${project.mode}": a repository may only narrow the network`,
      });
  }
  let getHeadOnly = project.getHeadOnly;
  out.sources[headKey] = baseSource;
  if (repo?.getHeadOnly === true && !project.getHeadOnly) {
    getHeadOnly = true;
    out.sources[headKey] = "repo";
  } else if (repo?.getHeadOnly === false && project.getHeadOnly)
    out.ignored.push({
      key: headKey,
      value: "false",
      reason: `the ${baseSource} allows GET and HEAD only: a repository may not allow other methods`,
    });
  return { mode, getHeadOnly };
}

/**
 * The sandbox's network: per phase a narrower mode and GET/HEAD only; the custom allow-list is what
 * both lists allow when the project already uses one (the repository's own list counts only where the
 * project's phase was Open, which it narrows to that list).
 */
export function tightenEgress(
  project: EgressSettings,
  projectSaved: boolean,
  repo: RepoNetwork | undefined,
): Tightened<EgressSettings> {
  const out: Tightened<EgressSettings> = { value: project, sources: {}, ignored: [] };
  const baseSource: TightSource = projectSaved ? "project" : "server";
  const setup = tightenPhase("setup", project.setup, repo?.setup, baseSource, out);
  const agent = tightenPhase("agent", project.agent, repo?.agent, baseSource, out);
  const projectUsesList = project.setup.mode === "custom" || project.agent.mode === "custom";
  let allowList = project.allowList;
  out.sources["network.allowList"] = baseSource;
  if (repo?.allowList) {
    allowList = projectUsesList
      ? project.allowList.filter((entry) => repo.allowList?.includes(entry))
      : repo.allowList;
    if (projectUsesList) {
      const wider = repo.allowList.filter((entry) => !project.allowList.includes(entry));
      if (wider.length > 0)
        out.ignored.push({
          key: "network.allowList",
          value: wider.join(", "),
          reason: `not on the ${baseSource}'s allow-list: a repository may only remove hosts`,
        });
    }
    if (JSON.stringify(allowList) !== JSON.stringify(project.allowList))
      out.sources["network.allowList"] = "repo";
  }
  out.value = { setup, agent, allowList };
  return out;
}

/**
 * The checkpoint fields the repository named but that did not count (layerCheckpoints kept the
 * project's because the file's value was looser), with the reason.
 */
export function ignoredCheckpoints(
  project: CheckpointPolicy,
  repo: RepoCheckpoints | undefined,
  used: CheckpointPolicy,
  who = "a repository",
): IgnoredSetting[] {
  if (!repo) return [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const ignored: IgnoredSetting[] = [];
  for (const field of Object.keys(repo) as CheckpointField[]) {
    const wanted = repo[field as keyof RepoCheckpoints];
    if (wanted === undefined || field === "qaFeedback") continue;
    if (Array.isArray(wanted)) {
      // Lists: allowed commands and pre-approvals the project does not have; denied ones always count.
      if (field === "denyCommands") continue;
      const projectList = project[field] as unknown[];
      const extra = (wanted as unknown[]).filter((item) => !projectList.some((own) => same(own, item)));
      if (extra.length > 0)
        ignored.push({
          key: `checkpoints.${field}`,
          value: extra.map((item) => (typeof item === "string" ? item : JSON.stringify(item))).join(", "),
          reason: `the project does not allow these: ${who} may only remove entries`,
        });
    } else if (!same(wanted, used[field]))
      ignored.push({
        key: `checkpoints.${field}`,
        value: String(wanted),
        reason: `looser than the project's "${String(project[field])}": ${who} may only tighten checkpoints`,
      });
  }
  return ignored;
}
