/**
 * Settings in a repository's own git configuration (`.git/config` and what it includes) that name a
 * program for git to run. The sandbox's environment overrides the ones that can be listed
 * (server/sandbox/safe-git.ts); drivers chosen by `.gitattributes` (`filter.<name>.clean`,
 * `diff.<name>.textconv`, `merge.<name>.driver`), `diff.external` and includes cannot be, so before
 * Arbor's own git stages files (Save, the trace ledger's snapshot) it reads the configuration — which
 * runs nothing — and refuses to go on when the repository names any program. `.git/` is protected,
 * so only something a person let run could have put one there.
 */

const PROGRAM_KEY =
  /^(?:(?:filter|diff|merge)\..+\.(?:clean|smudge|process|textconv|command|driver)|diff\.external|include\.path|includeif\..+\.path|core\.(?:fsmonitor|hookspath|pager|editor|sshcommand|gitproxy|askpass)|sequence\.editor|pager\..+|alias\..+|credential\..*helper|gpg\..*program)$/;

/** Lists every setting with its scope; includes followed, so an included file's keys show up too. */
export const LIST_CONFIG_COMMAND = "git config --list --name-only --show-scope --includes 2>/dev/null";

/** The repository-scoped keys (`local`, `worktree`) in `git config --list --show-scope` output that name programs. */
export function programKeys(listing: string): string[] {
  return listing.split("\n").flatMap((line) => {
    const [scope, key] = line.split("\t");
    if (key === undefined || (scope !== "local" && scope !== "worktree")) return [];
    return PROGRAM_KEY.test(key.toLowerCase()) ? [key] : [];
  });
}

export async function repositoryPrograms(
  exec: (command: string) => Promise<{ stdout: string; exitCode: number | null }>,
): Promise<string[]> {
  const listed = await exec(LIST_CONFIG_COMMAND);
  return programKeys(listed.stdout);
}

export function refusalFor(keys: readonly string[]): string {
  return `The repository's git configuration (.git/config) names programs for git to run (${keys.slice(0, 5).join(", ")}); Arbor does not run git on it. Remove those settings from .git/config in the terminal, then try again.`;
}
