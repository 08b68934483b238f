import YAML from "yaml";
import { readCheckpointPolicy } from "@/server/domain/policy/checkpoints";
import {
  checkRepoConfig,
  layerCheckpoints,
  REPO_CONFIG_PATH,
  type RepoConfigResult,
} from "@/server/domain/settings/repo-config";
import { personCheckpoints, type UserSettings } from "@/server/domain/settings/user-config";
import { defaultBranchFile } from "@/server/projects/git-repository";

/** Large enough for any real config; a bigger file is refused rather than parsed. */
const MAX_CONFIG_CHARS = 64_000;

/**
 * The project's `.arbor/config.yaml` from its default branch, checked. A file that is not YAML or
 * does not fit the schema is "invalid" with the problem named: the layer is then skipped (runs go on
 * with the other layers) and the settings page shows the problem.
 */
export async function readRepoConfig(repoPath: string): Promise<RepoConfigResult> {
  const text = await defaultBranchFile(repoPath, REPO_CONFIG_PATH);
  if (text === null) return { status: "absent" };
  if (text.length > MAX_CONFIG_CHARS)
    return {
      status: "invalid",
      problem: `${REPO_CONFIG_PATH} on the default branch is over ${MAX_CONFIG_CHARS} characters.`,
    };
  let raw: unknown;
  try {
    raw = YAML.parse(text);
  } catch (error) {
    const message = (error as Error).message.split("\n")[0];
    return {
      status: "invalid",
      problem: `${REPO_CONFIG_PATH} on the default branch is not valid YAML: ${message}`,
    };
  }
  return checkRepoConfig(raw);
}

/**
 * The checkpoint policy runs use: the repository's `checkpoints:` over the project's stored policy,
 * then the person's, field by field, with each field's source. An invalid file is skipped (the project's policy holds).
 */
export async function projectCheckpoints(
  project: { checkpointPolicy: string; repoPath: string },
  person: UserSettings = {},
  /** The run's CLI user file, over the person's stored settings: also only ever tighter. */
  cliLayer: UserSettings = {},
) {
  const repoConfig = await readRepoConfig(project.repoPath);
  const repo = repoConfig.status === "ok" ? repoConfig.config.checkpoints : undefined;
  // Then the person's own (the session opener's): only ever tighter, like the repository's.
  const layered = personCheckpoints(
    personCheckpoints(
      layerCheckpoints(readCheckpointPolicy(project.checkpointPolicy), repo),
      person.checkpoints,
    ),
    cliLayer.checkpoints,
    "cli",
  );
  return {
    policy: layered.policy,
    sources: layered.sources,
    repoConfig,
    ignored: layered.ignored.filter((row) => row.layer === "cli"),
  };
}
