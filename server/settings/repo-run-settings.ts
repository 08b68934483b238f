import "server-only";
import { readCheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { RivaLimits, RunBudget } from "@/server/domain/session/limits";
import {
  layerCheckpoints,
  type RepoConfig,
  type RepoConfigResult,
} from "@/server/domain/settings/repo-config";
import type { IgnoredSetting } from "@/server/domain/settings/repo-tighten";
import {
  ignoredCheckpoints,
  tightenBudget,
  tightenEgress,
  tightenLimits,
  tightenResources,
} from "@/server/domain/settings/repo-tighten";
import {
  personBudget,
  personCheckpoints,
  personLimits,
  type UserSettings,
} from "@/server/domain/settings/user-config";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { effectiveResources, type ResourcePolicy, readProjectResources } from "@/server/sandbox/resources";
import { parseEgress } from "@/server/setup/environment";
import { readRepoConfig } from "./repo-config-file";
import { personSettings, type UserSettingsDb } from "./user-layer";

/**
 * Every setting a run reads that the repository's `.arbor/config.yaml` (default branch) may tighten,
 * resolved for one project: run limits and budget over the server's, sandbox resources and network
 * over the project's, checkpoints over the project's. Each setting's use point calls this (the file is
 * read from git each time, so a merge to the default branch counts from the next run or sandbox on).
 */

/** What the server itself sets (environment, model config, caps): the layer under the project. */
export interface ServerRunDefaults {
  limits: RivaLimits;
  budget: RunBudget | null;
  resources: ResourcePolicy;
}

type Db = Pick<PrismaClient, "projectEnvironment"> & UserSettingsDb;

export interface RepoLayeredProject {
  id: string;
  repoPath: string;
  checkpointPolicy: string;
  sandboxResources: string;
}

/** The file's settings when it is valid; an invalid or absent file counts as empty (the other layers hold). */
const usable = (result: RepoConfigResult): RepoConfig => (result.status === "ok" ? result.config : {});

/**
 * `personId`: whose runs these are (a session's opener); their own settings then lower the limits and
 * budget and tighten the checkpoints further (sandbox and network are the session's, not a person's).
 * `cliLayer`: the server keys of their CLI user file sent with one run, applied over their stored
 * settings by the same only-tighter rule (its looser values are ignored with layer "cli").
 */
export async function repoRunSettings(
  db: Db,
  project: RepoLayeredProject,
  server: ServerRunDefaults,
  personId: string | null = null,
  cliLayer: UserSettings = {},
) {
  const [repoConfig, environment, person] = await Promise.all([
    readRepoConfig(project.repoPath),
    db.projectEnvironment.findUnique({ where: { projectId: project.id }, select: { egress: true } }),
    personSettings(db, personId),
  ]);
  const config = usable(repoConfig);
  const ownResources = readProjectResources(project.sandboxResources);
  const projectPolicy = readCheckpointPolicy(project.checkpointPolicy);
  const repoCheckpoints = layerCheckpoints(projectPolicy, config.checkpoints);
  const stored = personCheckpoints(repoCheckpoints, person.checkpoints);
  const checkpoints = personCheckpoints(stored, cliLayer.checkpoints, "cli");
  return {
    repoConfig,
    person,
    limits: personLimits(
      personLimits(tightenLimits(server.limits, config.limits), person.limits),
      cliLayer.limits,
      "cli",
    ),
    budget: personBudget(
      personBudget(tightenBudget(server.budget, config.budgets), person.budgets),
      cliLayer.budgets,
      "cli",
    ),
    resources: tightenResources(
      effectiveResources(ownResources, server.resources),
      new Set(Object.keys(ownResources)),
      config.sandbox,
    ),
    egress: tightenEgress(
      parseEgress(environment?.egress),
      environment != null && environment.egress !== "{}",
      config.network,
    ),
    checkpoints: {
      ...checkpoints,
      ignored: [
        ...ignoredCheckpoints(projectPolicy, config.checkpoints, repoCheckpoints.policy),
        ...stored.ignored,
        ...checkpoints.ignored,
      ],
    },
  };
}

export type RepoRunSettings = Awaited<ReturnType<typeof repoRunSettings>>;

/**
 * A session's run limits and budget: the server's, lowered by its project's repository file, by the
 * own settings of the person who opened it and by the run's CLI user file (`cliLayer`, as recorded in
 * its run-started event, so a resume anywhere applies the same); `ignored`: what the CLI file set
 * that was looser (limits, budgets and checkpoints), with the reason.
 */
export async function sessionRunBounds(
  db: Db & Pick<PrismaClient, "session">,
  sessionId: string,
  server: ServerRunDefaults,
  cliLayer: UserSettings = {},
): Promise<{ limits: RivaLimits; budget: RunBudget | null; ignored: IgnoredSetting[] }> {
  const session = await db.session.findUniqueOrThrow({
    where: { id: sessionId },
    include: { project: true },
  });
  const { project, createdById } = session;
  const settings = await repoRunSettings(db, project, server, createdById, cliLayer);
  const ignored = [...settings.checkpoints.ignored, ...settings.limits.ignored, ...settings.budget.ignored];
  return {
    limits: settings.limits.value,
    budget: settings.budget.value,
    ignored: ignored.filter((row) => row.layer === "cli"),
  };
}
