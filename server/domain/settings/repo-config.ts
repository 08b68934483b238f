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

/**
 * `.arbor/config.yaml`, the repository's own settings layer (issue #20.3). The server reads it from
 * the project's default branch only (never a session's workspace or branch), so what it says was
 * merged by someone allowed to merge; the agent's own writes to `.arbor/**` always ask a person.
 *
 * It names settings a person can change per project today, and nothing that reaches a secret: the
 * model by name and timeout only — no provider, base URL or API key, so a file in a repository (maybe
 * imported from anywhere) can never send the team's key to a server of its choosing. The `arbor` CLI's
 * own keys (`project`, `mode`, `approve`) are valid here and ignored by the server.
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

export const RepoConfig = z
  .object({
    // The CLI's keys (packages/cli/src/settings.ts): allowed, ignored by the server.
    project: z.string().trim().min(1).optional(),
    mode: z.enum(["agent", "chat"]).optional(),
    approve: z.array(z.string().trim().min(1)).optional(),
    model: z
      .object({
        /** The model name runs use (the provider and server come from the project or team). */
        name: z.string().trim().min(1).max(200).optional(),
        timeoutMs: z.number().int().min(1_000).max(600_000).optional(),
      })
      .strict()
      .optional(),
    checkpoints: RepoCheckpoints.optional(),
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

export type CheckpointSource = "repo" | "project";

/**
 * Repository > project, field by field: the policy runs use, and which layer each field came from.
 * The project's own policy is already a whole policy (its defaults and fail-closed reading applied).
 */
export function layerCheckpoints(
  project: CheckpointPolicy,
  repo: RepoCheckpoints | undefined,
): { policy: CheckpointPolicy; sources: Record<CheckpointField, CheckpointSource> } {
  const policy = { ...project, ...(repo ?? {}) } as CheckpointPolicy;
  const sources = Object.fromEntries(
    (Object.keys(project) as CheckpointField[]).map((field) => [
      field,
      repo?.[field] !== undefined ? "repo" : "project",
    ]),
  ) as Record<CheckpointField, CheckpointSource>;
  return { policy, sources };
}
