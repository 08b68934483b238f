import { z } from "zod";

/**
 * A project's upstream git remote (issue #21.3) as a person types it, and what the server derives from
 * it. Syntax only: nothing here touches the network or the disk.
 */

export const REMOTE_CREDENTIAL_KINDS = ["none", "token", "ssh-key"] as const;
export type RemoteCredentialKind = (typeof REMOTE_CREDENTIAL_KINDS)[number];

export const REMOTE_PROVIDERS = ["git", "github"] as const;
export type RemoteProvider = (typeof REMOTE_PROVIDERS)[number];

const HTTP_URL = /^https?:\/\/[^/\s]+\/\S+$/i;
const SSH_URL = /^ssh:\/\/[^/\s]+\/\S+$/i;
const SCP_LIKE = /^[\w.-]+@[\w.-]+:[^\s]+$/;

/** The remote's transport, or null when the text is no remote URL Arbor pushes to. */
export function remoteTransport(url: string): "https" | "ssh" | null {
  if (HTTP_URL.test(url)) return "https";
  if (SSH_URL.test(url) || SCP_LIKE.test(url)) return "ssh";
  return null;
}

/**
 * A credential never travels inside the URL (it would be stored, shown and logged with it): an
 * `https://user:secret@host/…` address is refused. A bare user name (`https://me@host/…`) is fine.
 */
function hasPasswordInUrl(url: string): boolean {
  const match = /^https?:\/\/([^/@\s]*)@/i.exec(url);
  return Boolean(match?.[1]?.includes(":"));
}

export const RemoteUrl = z
  .string()
  .trim()
  .min(1, "Give the remote's URL.")
  .max(2_000, "A remote URL has at most 2,000 characters.")
  .refine((url) => !url.startsWith("-"), "A remote URL cannot start with '-'.")
  .refine((url) => remoteTransport(url) !== null, {
    message: "Give an https://… or ssh://… (or git@host:path) URL of the remote repository.",
  })
  .refine((url) => !hasPasswordInUrl(url), {
    message: "Leave the token out of the URL: enter it as the credential, where it is stored encrypted.",
  });

/** GitHub's own host: its remotes open pull requests without being told. */
export function providerOf(url: string, chosen: RemoteProvider | null): RemoteProvider {
  if (chosen) return chosen;
  return /(^|[@/])github\.com[:/]/i.test(url) ? "github" : "git";
}

/**
 * `owner` and `repo` of a GitHub remote: the last two segments of its path, `.git` dropped
 * (https://github.com/o/r.git, git@github.com:o/r.git, ssh://git@github.com/o/r, and a GitHub
 * Enterprise or test server's https://host/prefix/o/r.git).
 */
export function githubRepositoryOf(url: string): { owner: string; repo: string } | null {
  const path = url
    .replace(/^[a-z]+:\/\/[^/]+\//i, "")
    .replace(/^[\w.-]+@[\w.-]+:/, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/i, "");
  const parts = path.split("/").filter(Boolean);
  const repo = parts.at(-1);
  const owner = parts.at(-2);
  const name = /^[\w.-]+$/;
  if (!owner || !repo || !name.test(owner) || !name.test(repo)) return null;
  return { owner, repo };
}
