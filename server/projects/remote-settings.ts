import "server-only";
import { z } from "zod";
import { UserFacingError } from "@/server/domain/errors";
import { hostKeyFingerprints } from "@/server/domain/remote/host-keys";
import {
  providerOf,
  REMOTE_PROVIDERS,
  type RemoteCredentialKind,
  type RemoteProvider,
  RemoteUrl,
  remoteTransport,
} from "@/server/domain/remote/remote-url";
import { rememberOpenedKey } from "@/server/events/opened-keys";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { SecretBox } from "@/server/settings/secret-box";
import { DEFAULT_TOKEN_USER, type RemoteAccess, type RemoteCredential } from "./remote-access";

/**
 * A project's upstream remote and its sealed credential (issue #21.3). The credential is sealed with
 * the model keys' box, bound to the project, and leaves this module only through `readRemoteAccess`,
 * which the server's own git and GitHub calls use; the browser gets "set" and at most 4 characters.
 */

const badRequest = (message: string) => new UserFacingError(message, "BAD_REQUEST");

/** Bound into the ciphertext: a sealed credential copied to another project does not open there. */
const contextOf = (projectId: string) => `project-remote:${projectId}`;
const MIN_LENGTH_FOR_HINT = 16;

export const RemoteCredentialInput = z.union([
  z.object({ action: z.literal("keep") }),
  z.object({ action: z.literal("clear") }),
  z.object({
    action: z.literal("set"),
    kind: z.literal("token"),
    username: z.string().trim().max(200).optional(),
    token: z.string().trim().min(1, "Type the token.").max(4_000),
  }),
  z.object({
    action: z.literal("set"),
    kind: z.literal("ssh-key"),
    privateKey: z
      .string()
      .trim()
      .min(1, "Paste the deploy key.")
      .max(16_000)
      .refine(
        (key) => /^-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key),
        "Paste a private key (-----BEGIN … PRIVATE KEY-----).",
      ),
  }),
]);
export type RemoteCredentialInput = z.infer<typeof RemoteCredentialInput>;

export const RemoteInput = z.object({
  url: RemoteUrl,
  provider: z.enum(REMOTE_PROVIDERS).nullable().default(null),
  credential: RemoteCredentialInput,
});
export type RemoteInput = z.infer<typeof RemoteInput>;

/** What the browser may see. */
export interface PublicRemote {
  url: string;
  provider: RemoteProvider;
  credential: { kind: RemoteCredentialKind; set: boolean; hint: string | null; username: string | null };
  /** SSH: the pinned host keys' fingerprints (`ssh-ed25519 SHA256:…`); empty until the first connection. */
  hostKeys: string[];
  updatedAt: Date;
}

type Row = NonNullable<Awaited<ReturnType<PrismaClient["projectRemote"]["findUnique"]>>>;

function kindOf(value: string): RemoteCredentialKind {
  return value === "token" || value === "ssh-key" ? value : "none";
}

function toPublic(row: Row): PublicRemote {
  return {
    url: row.url,
    provider: row.provider === "github" ? "github" : "git",
    credential: {
      kind: row.credentialSealed ? kindOf(row.credentialKind) : "none",
      set: Boolean(row.credentialSealed),
      hint: row.credentialHint,
      username: row.credentialKind === "token" ? row.username : null,
    },
    hostKeys: hostKeyFingerprints(row.sshKnownHosts),
    updatedAt: row.updatedAt,
  };
}

export async function readPublicRemote(db: PrismaClient, projectId: string): Promise<PublicRemote | null> {
  const row = await db.projectRemote.findUnique({ where: { projectId } });
  return row ? toPublic(row) : null;
}

/**
 * The columns a credential input writes (sealed), or {} to keep what is stored. A new credential
 * forgets the pinned SSH host key too: that is how an admin accepts a server's deliberately new key.
 */
export function sealedCredential(box: SecretBox, projectId: string, input: RemoteCredentialInput) {
  if (input.action === "keep") return {};
  if (input.action === "clear")
    return { credentialKind: "none", credentialSealed: null, credentialHint: null, username: null };
  const secret = input.kind === "token" ? input.token : input.privateKey;
  return {
    credentialKind: input.kind,
    credentialSealed: box.seal(secret, contextOf(projectId)),
    // A key's last characters are its armour's dashes: only a token gets a hint.
    credentialHint: input.kind === "token" && secret.length >= MIN_LENGTH_FOR_HINT ? secret.slice(-4) : null,
    username: input.kind === "token" ? input.username || null : null,
    sshKnownHosts: null,
  };
}

/** A token goes with HTTPS, a deploy key with SSH. */
function assertCredentialFits(kind: RemoteCredentialKind, url: string): void {
  const transport = remoteTransport(url);
  if (kind === "token" && transport !== "https")
    throw badRequest("A token signs in over HTTPS: give an https:// URL, or use a deploy key.");
  if (kind === "ssh-key" && transport !== "ssh")
    throw badRequest("A deploy key signs in over SSH: give an ssh:// or git@host:path URL.");
}

/**
 * Saves the remote. A stored credential is never sent to a new address: changing the URL while
 * keeping it is refused, so whoever may edit settings cannot point the team's token at a server of
 * their own. A credential must suit the URL's transport (a token for https, a key for ssh).
 */
export async function saveRemote(
  db: PrismaClient,
  box: SecretBox,
  projectId: string,
  input: RemoteInput,
  userId: string,
): Promise<PublicRemote> {
  const stored = await db.projectRemote.findUnique({ where: { projectId } });
  if (input.credential.action === "keep" && stored?.credentialSealed && stored.url !== input.url)
    throw badRequest(
      "You changed the remote's URL: enter the credential again (or remove it), so the stored one is never sent to a new address.",
    );
  const kind =
    input.credential.action === "set"
      ? input.credential.kind
      : input.credential.action === "keep" && stored?.credentialSealed
        ? kindOf(stored.credentialKind)
        : "none";
  assertCredentialFits(kind, input.url);
  const fields = {
    url: input.url,
    provider: providerOf(input.url, input.provider),
    updatedById: userId,
    // Another address is another server: its host key is pinned anew.
    ...(stored && stored.url !== input.url ? { sshKnownHosts: null } : {}),
    ...sealedCredential(box, projectId, input.credential),
  };
  const row = await db.projectRemote.upsert({
    where: { projectId },
    create: { projectId, ...fields },
    update: fields,
  });
  return toPublic(row);
}

export async function removeRemote(db: PrismaClient, projectId: string): Promise<void> {
  await db.projectRemote.deleteMany({ where: { projectId } });
}

/**
 * Server-side only: the remote with its credential opened, for the server's own git and GitHub
 * calls. The opened secret is remembered so the event store redacts it wherever it might appear.
 */
export async function readRemoteAccess(
  db: PrismaClient,
  box: SecretBox,
  projectId: string,
): Promise<(RemoteAccess & { provider: RemoteProvider }) | null> {
  const row = await db.projectRemote.findUnique({ where: { projectId } });
  if (!row) return null;
  const provider: RemoteProvider = row.provider === "github" ? "github" : "git";
  const knownHosts = row.sshKnownHosts;
  if (!row.credentialSealed) return { url: row.url, provider, credential: { kind: "none" }, knownHosts };
  const secret = box.open(row.credentialSealed, contextOf(projectId));
  rememberOpenedKey(secret);
  const credential: RemoteCredential =
    kindOf(row.credentialKind) === "ssh-key"
      ? { kind: "ssh-key", privateKey: secret }
      : { kind: "token", username: row.username || DEFAULT_TOKEN_USER, token: secret };
  return { url: row.url, provider, credential, knownHosts };
}

/**
 * Stores the host key(s) an SSH remote showed at its first connection, unless the remote changed in
 * the meantime (another URL) or a key was pinned already (the first pin wins).
 */
export async function pinHostKeys(
  db: PrismaClient,
  projectId: string,
  url: string,
  knownHosts: string,
): Promise<void> {
  await db.projectRemote.updateMany({
    where: { projectId, url, sshKnownHosts: null },
    data: { sshKnownHosts: knownHosts },
  });
}

/** The credential typed on the import form, for the clone (none when the form gave none). */
export function importCredential(input: RemoteCredentialInput | undefined): RemoteCredential {
  if (input?.action !== "set") return { kind: "none" };
  return input.kind === "token"
    ? { kind: "token", username: input.username || DEFAULT_TOKEN_USER, token: input.token }
    : { kind: "ssh-key", privateKey: input.privateKey };
}

/**
 * The remote row of a project imported from `url`: where it came from, with the credential sealed.
 * An address Arbor would not push to (git://) gives no remote; a credential with one is refused.
 */
export function remoteForImport(
  box: SecretBox,
  projectId: string,
  url: string,
  credential: RemoteCredentialInput | undefined,
  userId: string,
) {
  const parsed = RemoteUrl.safeParse(url);
  const given = credential?.action === "set";
  if (!parsed.success) {
    if (given) throw badRequest(parsed.error.issues[0]?.message ?? "That URL cannot take a credential.");
    return null;
  }
  if (given) assertCredentialFits(credential.kind, parsed.data);
  return {
    url: parsed.data,
    provider: providerOf(parsed.data, null),
    updatedById: userId,
    ...(given ? sealedCredential(box, projectId, credential) : {}),
  };
}
