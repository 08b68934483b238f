import { z } from "zod";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { RivaLimits, RunBudget } from "@/server/domain/session/limits";
import {
  type CheckpointField,
  type CheckpointSource,
  layerCheckpoints,
  ModelChoice,
  RepoBudgets,
  RepoCheckpoints,
  RepoLimits,
} from "./repo-config";
import { type IgnoredSetting, ignoredCheckpoints, type Tightened, type TightSource } from "./repo-tighten";

/**
 * A person's own settings layer on the server (issue #20.3): what one person chooses for the runs of
 * the sessions they open, in every team. The rule, per setting:
 * - **model** (name, timeout): a choice, not a gate, so it beats the project's and the team's (the
 *   provider, server and key stay theirs: a person never sends a team's key anywhere else); the
 *   repository file, the environment and a run's own pick beat it.
 * - **checkpoints, limits, budgets**: only ever **tighter** than what the server, team, project and
 *   repository allow, exactly like the repository file: a person may ask more (a stricter checkpoint,
 *   fewer pre-approved categories or allowed commands, more denied ones) and lower a limit or budget,
 *   never the reverse. A looser value is kept but not used, and shown as ignored with the reason.
 * - sandbox resources and network are not a person's: a session's sandbox is shared by everyone who
 *   works in it, so they stay with the project and the repository.
 * Pure: the layers below are passed in already resolved.
 */
export const UserSettings = z
  .object({
    model: ModelChoice.optional(),
    checkpoints: RepoCheckpoints.optional(),
    limits: RepoLimits.optional(),
    budgets: RepoBudgets.optional(),
  })
  .strict();
export type UserSettings = z.infer<typeof UserSettings>;

/** A stored row that no longer fits the schema (written by a newer version) counts as empty. */
export function readUserSettings(json: string | null | undefined): UserSettings {
  if (!json) return {};
  try {
    const parsed = UserSettings.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

const show = (value: number | null): string => (value === null ? "unlimited" : String(value));

/**
 * The two person layers: "user", the person's stored settings (/account), and "cli", the server keys
 * of the CLI's user file that `arbor run` sends with one run (issue #20), applied over the stored ones.
 */
export type PersonLayer = "user" | "cli";

/** Where a run's CLI layer came from, as the session, the replay and `arbor history show` name it. */
export const CLI_CONFIG_LABEL = "your CLI config (~/.config/arbor/config.yaml)";

const WHO: Record<PersonLayer, string> = { user: "your own settings", cli: CLI_CONFIG_LABEL };
/** How a source is named in a reason ("higher than the server's 10", "… than your own settings' 5"). */
const whose = (source: TightSource | undefined): string =>
  source === "user" ? "your own settings'" : `the ${source ?? "server"}'s`;

/** One number a person may only lower; `out` collects the source and what was ignored. */
function lowerBy<T extends number | null>(
  key: string,
  base: T,
  out: { sources: Record<string, TightSource>; ignored: IgnoredSetting[] },
  wanted: number | undefined,
  layer: PersonLayer,
): T | number {
  if (wanted === undefined) return base;
  if (base === null || wanted <= base) {
    out.sources[key] = layer;
    return wanted;
  }
  out.ignored.push({
    key,
    layer,
    value: String(wanted),
    reason: `higher than ${whose(out.sources[key])} ${show(base)}: ${WHO[layer]} may only lower it`,
  });
  return base;
}

/** Run limits as the layers below made them, each lowered by the person's. */
export function personLimits(
  below: Tightened<RivaLimits>,
  wanted: UserSettings["limits"],
  layer: PersonLayer = "user",
) {
  const out: Tightened<RivaLimits> = {
    value: below.value,
    sources: { ...below.sources },
    ignored: [...below.ignored],
  };
  const w = wanted ?? {};
  const base = below.value;
  const seconds = lowerBy(
    "limits.wallClockSeconds",
    Math.round(base.wallClockMs / 1000),
    out,
    w.wallClockSeconds,
    layer,
  );
  out.value = {
    maxDepth: lowerBy("limits.maxDepth", base.maxDepth, out, w.maxDepth, layer),
    maxCyclesPerIntention: lowerBy(
      "limits.maxCyclesPerIntention",
      base.maxCyclesPerIntention,
      out,
      w.maxCyclesPerIntention,
      layer,
    ),
    maxIterations: lowerBy("limits.maxIterations", base.maxIterations, out, w.maxIterations, layer),
    wallClockMs: out.sources["limits.wallClockSeconds"] === layer ? seconds * 1000 : base.wallClockMs,
  };
  return out;
}

/** The run's budget as the layers below made it, lowered by the person's (or set, when unlimited). */
export function personBudget(
  below: Tightened<RunBudget | null>,
  wanted: UserSettings["budgets"],
  layer: PersonLayer = "user",
) {
  const out: Tightened<RunBudget | null> = {
    value: below.value,
    sources: { ...below.sources },
    ignored: [...below.ignored],
  };
  const base = below.value ?? { maxCostUsd: null, maxTokens: null };
  const w = wanted ?? {};
  const maxCostUsd = lowerBy("budgets.maxCostUsd", base.maxCostUsd, out, w.maxCostUsd, layer);
  const maxTokens = lowerBy("budgets.maxTokens", base.maxTokens, out, w.maxTokens, layer);
  out.value = maxCostUsd === null && maxTokens === null ? null : { maxCostUsd, maxTokens };
  return out;
}

/**
 * The checkpoint policy with the person's fields over the layers below, only ever tighter (the same
 * rule as the repository's file); each field's source, and the looser fields that were ignored.
 */
export function personCheckpoints(
  below: { policy: CheckpointPolicy; sources: Record<CheckpointField, CheckpointSource> },
  wanted: UserSettings["checkpoints"],
  layer: PersonLayer = "user",
) {
  const layered = layerCheckpoints(below.policy, wanted);
  const sources = Object.fromEntries(
    (Object.keys(below.sources) as CheckpointField[]).map((field) => [
      field,
      layered.sources[field] === "repo" ? layer : below.sources[field],
    ]),
  ) as Record<CheckpointField, CheckpointSource>;
  const ignored = ignoredCheckpoints(below.policy, wanted, layered.policy, WHO[layer]).map(
    (row): IgnoredSetting => ({ ...row, layer }),
  );
  return { policy: layered.policy, sources, ignored };
}

/**
 * A person layer as `key = value` pairs (`limits.maxIterations`, `checkpoints.commands`, `model.name`),
 * in the file's order: what a run's start shows it set, and what `arbor config list` prints.
 */
export function userSettingEntries(settings: UserSettings): [key: string, value: string][] {
  const text = (value: unknown): string =>
    Array.isArray(value)
      ? value.map((item) => (typeof item === "string" ? item : JSON.stringify(item))).join(", ") || "(none)"
      : String(value);
  return (Object.entries(settings) as [string, Record<string, unknown> | undefined][]).flatMap(
    ([section, values]) =>
      Object.entries(values ?? {})
        .filter(([, value]) => value !== undefined)
        .map(([key, value]): [string, string] => [`${section}.${key}`, text(value)]),
  );
}
