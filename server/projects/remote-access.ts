import "server-only";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * How the server's own git process proves who it is to a project's remote (issue #21.3). The
 * credential goes only into the environment of that one git process (never `-c` on its command line,
 * which every local user can read in `ps`; never the repository's config; never a sandbox): an HTTPS
 * token as an `http.extraHeader` through GIT_CONFIG_COUNT, an SSH deploy key as a 0600 file in a
 * private temporary directory named by GIT_SSH_COMMAND and deleted when the call ends. The SSH server's
 * host key is pinned per remote on first use (HostKeyPin), never accepted silently on every call.
 */

export type RemoteCredential =
  | { kind: "none" }
  | { kind: "token"; username: string; token: string }
  | { kind: "ssh-key"; privateKey: string };

export interface RemoteAccess {
  url: string;
  credential: RemoteCredential;
  /** SSH: the server's host key(s) pinned on first use (known_hosts lines); null until then. */
  knownHosts: string | null;
}

/**
 * SSH host keys: `pinned` are the remote's stored known_hosts lines (the only keys accepted, when
 * set); with none pinned yet, the key the server shows is accepted and handed to `onFirstUse` after
 * the call succeeded, to be stored with the remote (trust on first use, like ssh's own accept-new —
 * but kept, so a later different key is refused instead of accepted again).
 */
export interface HostKeyPin {
  pinned: string | null;
  onFirstUse?: (knownHosts: string) => Promise<void>;
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
  hostKeys: HostKeyPin = { pinned: null },
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
    const knownHostsFile = path.join(dir, "known_hosts");
    const pinned = hostKeys.pinned?.trim() ? `${hostKeys.pinned.trim()}\n` : null;
    if (pinned) await writeFile(knownHostsFile, pinned, { mode: 0o600 });
    const command = [
      "ssh",
      `-i ${quoteForShell(keyFile)}`,
      "-o IdentitiesOnly=yes",
      "-o BatchMode=yes",
      // Only the remote's own pinned keys count: no known_hosts of the server's user or the system's.
      // Without a pin yet, the first key is taken and kept (onFirstUse); a pin is then the only key.
      `-o StrictHostKeyChecking=${pinned ? "yes" : "accept-new"}`,
      `-o UserKnownHostsFile=${quoteForShell(knownHostsFile)}`,
      "-o GlobalKnownHostsFile=/dev/null",
      "-o HashKnownHosts=no",
      "-o UpdateHostKeys=no",
      "-o CheckHostIP=no",
    ].join(" ");
    const result = await use({ env: { GIT_SSH_COMMAND: command }, secrets: [credential.privateKey.trim()] });
    if (!pinned && hostKeys.onFirstUse) {
      const learned = await readFile(knownHostsFile, "utf8").catch(() => "");
      if (learned.trim() !== "") await hostKeys.onFirstUse(learned.trim());
    }
    return result;
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
