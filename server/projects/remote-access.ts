import "server-only";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * How the server's own git process proves who it is to a project's remote (issue #21.3). The
 * credential goes only into the environment of that one git process (never `-c` on its command line,
 * which every local user can read in `ps`; never the repository's config; never a sandbox): an HTTPS
 * token as an `http.extraHeader` through GIT_CONFIG_COUNT, an SSH deploy key as a 0600 file in a
 * private temporary directory named by GIT_SSH_COMMAND and deleted when the call ends.
 */

export type RemoteCredential =
  | { kind: "none" }
  | { kind: "token"; username: string; token: string }
  | { kind: "ssh-key"; privateKey: string };

export interface RemoteAccess {
  url: string;
  credential: RemoteCredential;
}

/** Extra environment for one git process; `secrets` are the strings to cut out of anything it prints. */
export interface GitAuth {
  env: Record<string, string>;
  secrets: string[];
}

/** The user name a token goes with when none is given: GitHub's documented one for tokens. */
export const DEFAULT_TOKEN_USER = "x-access-token";

/** Config handed to git through the environment (GIT_CONFIG_COUNT / KEY_n / VALUE_n). */
function configEnv(pairs: Array<[string, string]>): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

function quoteForShell(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `use` with the git environment for `credential`, and removes whatever it wrote (the SSH key)
 * afterwards, whether `use` succeeded or not. A redirect is never followed with a credential: the
 * header would go to wherever the remote pointed.
 */
export async function withRemoteAuth<T>(
  credential: RemoteCredential,
  use: (auth: GitAuth) => Promise<T>,
): Promise<T> {
  if (credential.kind === "none") return use({ env: {}, secrets: [] });
  if (credential.kind === "token") {
    const basic = Buffer.from(`${credential.username}:${credential.token}`).toString("base64");
    return use({
      env: configEnv([
        ["http.extraHeader", `Authorization: Basic ${basic}`],
        ["http.followRedirects", "false"],
      ]),
      secrets: [credential.token, basic],
    });
  }
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-ssh-"));
  try {
    const keyFile = path.join(dir, "deploy-key");
    const key = credential.privateKey.endsWith("\n") ? credential.privateKey : `${credential.privateKey}\n`;
    await writeFile(keyFile, key, { mode: 0o600 });
    const command = [
      "ssh",
      `-i ${quoteForShell(keyFile)}`,
      "-o IdentitiesOnly=yes",
      "-o BatchMode=yes",
      // No known_hosts of the server's user is read or written; the host key is taken on first use.
      "-o StrictHostKeyChecking=accept-new",
      `-o UserKnownHostsFile=${quoteForShell(path.join(dir, "known_hosts"))}`,
    ].join(" ");
    return await use({ env: { GIT_SSH_COMMAND: command }, secrets: [credential.privateKey.trim()] });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `text` with every secret replaced, for messages that may reach a person or a log. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  return secrets
    .filter((secret) => secret.length >= 4)
    .reduce((out, secret) => out.split(secret).join("•••"), text);
}
