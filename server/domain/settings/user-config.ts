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

/** One number a person may only lower; `out` collects the source and what was ignored. */
function lowerBy<T extends number | null>(
  key: string,
  base: T,
  out: { sources: Record<string, TightSource>; ignored: IgnoredSetting[] },
  wanted: number | undefined,
): T | number {
  if (wanted === undefined) return base;
  if (base === null || wanted <= base) {
    out.sources[key] = "user";
    return wanted;
  }
  out.ignored.push({
    key,
    layer: "user",
    value: String(wanted),
    reason: `higher than the ${out.sources[key] ?? "server"}'s ${show(base)}: your own settings may only lower it`,
  });
  return base;
}

/** Run limits as the layers below made them, each lowered by the person's. */
export function personLimits(below: Tightened<RivaLimits>, wanted: UserSettings["limits"]) {
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
  );
  out.value = {
    maxDepth: lowerBy("limits.maxDepth", base.maxDepth, out, w.maxDepth),
    maxCyclesPerIntention: lowerBy(
      "limits.maxCyclesPerIntention",
      base.maxCyclesPerIntention,
      out,
      w.maxCyclesPerIntention,
    ),
    maxIterations: lowerBy("limits.maxIterations", base.maxIterations, out, w.maxIterations),
    wallClockMs: out.sources["limits.wallClockSeconds"] === "user" ? seconds * 1000 : base.wallClockMs,
  };
  return out;
}

/** The run's budget as the layers below made it, lowered by the person's (or set, when unlimited). */
export function personBudget(below: Tightened<RunBudget | null>, wanted: UserSettings["budgets"]) {
  const out: Tightened<RunBudget | null> = {
    value: below.value,
    sources: { ...below.sources },
    ignored: [...below.ignored],
  };
  const base = below.value ?? { maxCostUsd: null, maxTokens: null };
  const w = wanted ?? {};
  const maxCostUsd = lowerBy("budgets.maxCostUsd", base.maxCostUsd, out, w.maxCostUsd);
  const maxTokens = lowerBy("budgets.maxTokens", base.maxTokens, out, w.maxTokens);
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
) {
  const layered = layerCheckpoints(below.policy, wanted);
  const sources = Object.fromEntries(
    (Object.keys(below.sources) as CheckpointField[]).map((field) => [
      field,
      layered.sources[field] === "repo" ? "user" : below.sources[field],
    ]),
  ) as Record<CheckpointField, CheckpointSource>;
  const ignored = ignoredCheckpoints(below.policy, wanted, layered.policy, "your own settings").map(
    (row): IgnoredSetting => ({ ...row, layer: "user" }),
  );
  return { policy: layered.policy, sources, ignored };
}
