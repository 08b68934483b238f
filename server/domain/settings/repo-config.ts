import { z } from "zod";
import { CommandPattern } from "@/server/domain/policy/approval-policy";
import {
  type CheckpointPolicy,
  CommandCheckpoint,
  PRE_APPROVABLE_CATEGORIES,
  PreApprovableCategory,
  QaReviewSetting,
  QuestionCheckpoint,
} from "@/server/domain/policy/checkpoints";
import { RepoSetup } from "@/server/domain/settings/setup-command";
import { AllowEntry, EgressMode } from "@/server/domain/vocabulary/egress";
import { ProjectResources } from "@/server/domain/vocabulary/sandbox-resources";

/**
 * `.arbor/config.yaml`, the repository's own settings layer (issue #20.3). The server reads it from
 * the project's default branch only (never a session's workspace or branch), so what it says was
 * merged by someone allowed to merge; the agent's own writes to `.arbor/**` always ask a person.
 *
 * It names settings a person can change per project today, and nothing that reaches a secret: the
 * model by name and timeout only — no provider, base URL or API key, so a file in a repository (maybe
 * imported from anywhere) can never send the team's key to a server of its choosing. The `arbor` CLI's
 * own keys (`project`, `mode`, `approve`) are valid here and ignored by the server. The setup command
 * it names is only proposed: it runs once a person approved that exact text on the card.
 */

/** Every checkpoint field, optional and without defaults: an absent field inherits from below. */
export const RepoCheckpoints = z
  .object({
    decompositions: z.enum(["ask", "auto"]),
    commands: CommandCheckpoint,
    allowCommands: z.array(CommandPattern).max(100),
    denyCommands: z.array(CommandPattern).max(100),
    judgeAction: QuestionCheckpoint,
    verifyIntegration: QuestionCheckpoint,
    reviewReflection: QuestionCheckpoint,
    preApproved: z.array(PreApprovableCategory).max(PRE_APPROVABLE_CATEGORIES.length),
    qaReview: QaReviewSetting,
    qaFeedback: z.boolean(),
    outOfScopeWrites: z.enum(["refuse", "ask"]),
  })
  .partial()
  .strict();
export type RepoCheckpoints = z.infer<typeof RepoCheckpoints>;
export type CheckpointField = keyof CheckpointPolicy;

/** Run limits (seed 000's safety limits); the repository may only lower the server's. */
export const RepoLimits = z
  .object({
    maxDepth: z.number().int().min(0).max(50),
    maxCyclesPerIntention: z.number().int().min(1).max(50),
    maxIterations: z.number().int().min(1).max(1_000),
    wallClockSeconds: z.number().int().min(1),
  })
  .partial()
  .strict();
export type RepoLimits = z.infer<typeof RepoLimits>;

/** The run's money and token budget; the repository may only lower (or set, when unlimited) it. */
export const RepoBudgets = z
  .object({ maxCostUsd: z.number().positive(), maxTokens: z.number().int().positive() })
  .partial()
  .strict();
export type RepoBudgets = z.infer<typeof RepoBudgets>;

/** Sandbox resources, as on the project's card; only ever smaller than the project's. */
export const RepoSandbox = ProjectResources;
export type RepoSandbox = z.infer<typeof RepoSandbox>;

const RepoPhase = z.object({ mode: EgressMode, getHeadOnly: z.boolean() }).partial().strict();

/** The sandbox's network per phase; only ever less than the project's. */
export const RepoNetwork = z
  .object({ setup: RepoPhase, agent: RepoPhase, allowList: z.array(AllowEntry).max(200) })
  .partial()
  .strict();
export type RepoNetwork = z.infer<typeof RepoNetwork>;

/** A model by name and timeout only: never a provider, base URL or key (those stay the project's or team's). */
export const ModelChoice = z
  .object({
    /** The model name runs use (the provider and server come from the project or team). */
    name: z.string().trim().min(1).max(200).optional(),
    timeoutMs: z.number().int().min(1_000).max(600_000).optional(),
  })
  .strict();

export const RepoConfig = z
  .object({
    // The CLI's keys (packages/cli/src/settings.ts): allowed, ignored by the server.
    project: z.string().trim().min(1).optional(),
    mode: z.enum(["agent", "chat"]).optional(),
    approve: z.array(z.string().trim().min(1)).optional(),
    model: ModelChoice.optional(),
    checkpoints: RepoCheckpoints.optional(),
    limits: RepoLimits.optional(),
    budgets: RepoBudgets.optional(),
    sandbox: RepoSandbox.optional(),
    network: RepoNetwork.optional(),
    setup: RepoSetup.optional(),
  })
  .strict();
export type RepoConfig = z.infer<typeof RepoConfig>;

/** The file's path in the repository. */
export const REPO_CONFIG_PATH = ".arbor/config.yaml";

export type RepoConfigResult =
  | { status: "absent" }
  | { status: "ok"; config: RepoConfig }
  | { status: "invalid"; problem: string };

/** The parsed YAML (already a value) checked against the schema; every problem named with its key. */
export function checkRepoConfig(raw: unknown): RepoConfigResult {
  const parsed = RepoConfig.safeParse(raw ?? {});
  if (parsed.success) return { status: "ok", config: parsed.data };
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.join(".") || "(top level)"}: ${issue.message}`,
  );
  return { status: "invalid", problem: `${REPO_CONFIG_PATH} on the default branch: ${problems.join("; ")}` };
}

export type CheckpointSource = "cli" | "user" | "repo" | "project";

/** Each field's values from the least to the most careful: the repository may only move right. */
const STRICTNESS = {
  decompositions: ["auto", "ask"],
  commands: ["never-ask", "ask-unlisted", "ask-always"],
  judgeAction: ["auto", "ask"],
  verifyIntegration: ["auto", "ask"],
  reviewReflection: ["auto", "ask"],
  qaReview: ["off", "on"],
  outOfScopeWrites: ["ask", "refuse"],
} as const satisfies Partial<Record<CheckpointField, readonly string[]>>;

const samePattern = (a: CommandPattern, b: CommandPattern) => JSON.stringify(a) === JSON.stringify(b);

const stricter = <T extends string>(order: readonly T[], project: T, repo: T | undefined): T =>
  repo !== undefined && order.indexOf(repo) > order.indexOf(project) ? repo : project;

/**
 * Repository > project, field by field, but only ever **tighter** (issue #20.3 with the rule that a
 * repository file never widens what later runs may do): the file is on the default branch, which an
 * import from anywhere fills, so it may ask more (a stricter checkpoint, more denied commands, fewer
 * allowed or pre-approved ones) and never less. A looser value is ignored and its field stays the
 * project's. `qaFeedback` (what the agent is told, not a gate) is the repository's when it names it.
 */
export function layerCheckpoints(
  project: CheckpointPolicy,
  repo: RepoCheckpoints | undefined,
): { policy: CheckpointPolicy; sources: Record<CheckpointField, CheckpointSource> } {
  const r = repo ?? {};
  const policy: CheckpointPolicy = {
    ...project,
    decompositions: stricter(STRICTNESS.decompositions, project.decompositions, r.decompositions),
    commands: stricter(STRICTNESS.commands, project.commands, r.commands),
    judgeAction: stricter(STRICTNESS.judgeAction, project.judgeAction, r.judgeAction),
    verifyIntegration: stricter(STRICTNESS.verifyIntegration, project.verifyIntegration, r.verifyIntegration),
    reviewReflection: stricter(STRICTNESS.reviewReflection, project.reviewReflection, r.reviewReflection),
    qaReview: stricter(STRICTNESS.qaReview, project.qaReview, r.qaReview),
    outOfScopeWrites: stricter(STRICTNESS.outOfScopeWrites, project.outOfScopeWrites, r.outOfScopeWrites),
    // Allowed and pre-approved: only what both layers allow. Denied: what either denies.
    allowCommands: r.allowCommands
      ? project.allowCommands.filter((pattern) =>
          r.allowCommands?.some((other) => samePattern(pattern, other)),
        )
      : project.allowCommands,
    preApproved: r.preApproved
      ? project.preApproved.filter((category) => r.preApproved?.includes(category))
      : project.preApproved,
    denyCommands: r.denyCommands
      ? [
          ...project.denyCommands,
          ...r.denyCommands.filter(
            (pattern) => !project.denyCommands.some((other) => samePattern(pattern, other)),
          ),
        ]
      : project.denyCommands,
    qaFeedback: r.qaFeedback ?? project.qaFeedback,
  };
  const sources = Object.fromEntries(
    (Object.keys(project) as CheckpointField[]).map((field) => [
      field,
      r[field] !== undefined && JSON.stringify(policy[field]) !== JSON.stringify(project[field])
        ? "repo"
        : "project",
    ]),
  ) as Record<CheckpointField, CheckpointSource>;
  return { policy, sources };
}
