import "server-only";
/**
 * Git configuration that no file the agent can write is able to turn into a program run, for every
 * process in a session's container: Arbor's own git (tools, Save, the trace ledger, the clone), every
 * command the agent runs (an auto-approved `git status` included) and a person's terminal.
 *
 * - `GIT_CONFIG_GLOBAL=/dev/null`: `~/.gitconfig` and `~/.config/git/config` live in the writable
 *   home directory, so they are never read. The system file (/etc/gitconfig) stays: it is the image's,
 *   on a read-only root filesystem, and holds the commit identity and `safe.directory`.
 * - `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n` are command-line-level settings, above the repository's own
 *   `.git/config`, so a planted `core.fsmonitor`, `core.hooksPath`, `core.pager`, `core.sshCommand`,
 *   credential helper or signing program is overridden. Git (since 2.31) reads them in every
 *   subprocess it starts, so they also hold for the receiving side of a local fetch or push.
 * - `GIT_PAGER=cat`: wins over `core.pager` and every `pager.<command>`.
 *
 * What cannot be listed here are drivers named by `.gitattributes` (`filter.<name>.clean`,
 * `diff.<name>.textconv`, `merge.<name>.driver`) and `diff.external`: those need a write to
 * `.git/config`, which is a protected path for every route the agent has (the fs tools, redirections
 * and write options in commands: server/policy/approval/program-arguments.ts), so only a person's
 * explicit approval of that write could set one.
 */
export const SAFE_GIT_CONFIG: ReadonlyArray<readonly [key: string, value: string]> = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["core.sshCommand", "ssh"],
  ["credential.helper", ""],
  ["protocol.ext.allow", "never"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["gpg.program", "gpg"],
];

export const SAFE_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_PAGER: "cat",
  GIT_CONFIG_COUNT: String(SAFE_GIT_CONFIG.length),
  ...Object.fromEntries(
    SAFE_GIT_CONFIG.flatMap(([key, value], i) => [
      [`GIT_CONFIG_KEY_${i}`, key],
      [`GIT_CONFIG_VALUE_${i}`, value],
    ]),
  ),
};

/** `KEY=value` lines for a container's or an exec's `Env`. */
export function safeGitEnvLines(): string[] {
  return Object.entries(SAFE_GIT_ENV).map(([key, value]) => `${key}=${value}`);
}
