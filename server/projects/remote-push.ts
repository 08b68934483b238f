import "server-only";
import { hostKeyRefusalMessage, isHostKeyRefusal } from "@/server/domain/remote/host-keys";
import { type PushOutcome, pushOutcome } from "@/server/domain/remote/push-outcome";
import { gitWithEnv } from "@/server/projects/git-repository";
import { type RemoteAccess, withoutSecrets, withRemoteAuth } from "@/server/projects/remote-access";

/**
 * Pushes one branch of a project's bare repository to its upstream remote (issue #21.3), from the
 * server (never from a sandbox), under the same name. The refspec has no `+` and no `--force` is ever
 * given: a remote that has moved on refuses, and git's reason comes back. The URL is passed on the
 * command line and never written into the repository's config.
 */
export async function pushBranch(
  repoPath: string,
  access: RemoteAccess,
  branch: string,
  onFirstHostKeys?: (knownHosts: string) => Promise<void>,
): Promise<PushOutcome & { commit: string }> {
  const ref = `refs/heads/${branch}`;
  const { stdout: commit } = await gitWithEnv(["-C", repoPath, "rev-parse", "--verify", ref], {}, 10_000);
  return withRemoteAuth(
    access.credential,
    async (auth) => {
      const args = ["-C", repoPath, "push", "--porcelain", "--no-verify", "--", access.url, `${ref}:${ref}`];
      const output = await gitWithEnv(args, auth.env).then(
        (done) => ({ ...done, exitCode: 0 }),
        (error: { stdout?: string; stderr?: string; code?: number }) => ({
          stdout: error.stdout ?? "",
          stderr: error.stderr ?? "",
          exitCode: typeof error.code === "number" ? error.code : 1,
        }),
      );
      const outcome: PushOutcome =
        output.exitCode !== 0 && isHostKeyRefusal(output.stderr)
          ? { pushed: false, reason: hostKeyRefusalMessage(access.knownHosts), nonFastForward: false }
          : pushOutcome(output, ref);
      const clean = outcome.pushed
        ? outcome
        : { ...outcome, reason: withoutSecrets(outcome.reason, auth.secrets) };
      return { ...clean, commit: commit.trim() };
    },
    { pinned: access.knownHosts, onFirstUse: onFirstHostKeys },
  );
}
