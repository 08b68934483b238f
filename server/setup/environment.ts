import { z } from "zod";
import { chooseSetupCommand, type SetupSource } from "@/server/domain/settings/setup-command";
import { DEFAULT_EGRESS, EgressSettings } from "@/server/domain/vocabulary/egress";
import { rememberOpenedKey } from "@/server/events/opened-keys";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { defaultBranch, rootFiles } from "@/server/projects/git-repository";
import { readRepoConfig } from "@/server/settings/repo-config-file";
import type { SecretBox } from "@/server/settings/secret-box";
import { detectSetupCommand, setupCommandHash } from "./detect";
import type { SessionEnvironment } from "./prepare-environment";

/**
 * A project's sandbox environment: the network per phase, the setup command (its approval bound to
 * the exact text) and the setup secrets (sealed; only names ever leave the server). Every change
 * applies to sessions created afterwards.
 */

/** Names a setup secret may not take: the sandbox's own variables and the proxy's. */
const RESERVED = new Set([
  "PATH",
  "HOME",
  "USER",
  "SHELL",
  "LANG",
  "PWD",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "NODE_OPTIONS",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "BASH_ENV",
  "ENV",
]);

export const SecretName = z
  .string()
  .trim()
  .regex(
    /^[A-Z_][A-Z0-9_]{0,63}$/,
    "A secret's name is an environment variable name: A–Z, 0–9 and _, not starting with a digit.",
  )
  .refine((name) => !RESERVED.has(name) && !name.startsWith("NPM_CONFIG_") && !name.startsWith("ARBOR_"), {
    message: "That name is reserved for the sandbox's own settings.",
  });

export interface SetupView {
  /** What runs once approved: the project's own command, else the repository file's, else the detected one. */
  command: string | null;
  /** Where `command` came from (null when there is none). */
  source: SetupSource | null;
  detected: string | null;
  /** The command `.arbor/config.yaml` names on the default branch (whether or not it is the one used). */
  repoCommand: string | null;
  /** Why the file was skipped as a whole (its setup command with it), or null. */
  repoProblem: string | null;
  /** The default branch's name, for "from .arbor/config.yaml on main". */
  defaultBranch: string;
  custom: boolean;
  hash: string | null;
  approved: boolean;
  /** A person approved another text before (the file or the card changed since): this one needs its own approval. */
  otherApproved: boolean;
  approvedById: string | null;
  approvedAt: Date | null;
}

export interface EnvironmentView {
  egress: EgressSettings;
  setup: SetupView;
  /** Names only: values never leave the server. */
  secretNames: string[];
}

type Db = Pick<PrismaClient, "projectEnvironment">;

export function parseEgress(stored: string | undefined): EgressSettings {
  if (!stored) return DEFAULT_EGRESS;
  try {
    const parsed = EgressSettings.safeParse(JSON.parse(stored));
    // A stored value that no longer parses falls back to the safe defaults (Off for the agent).
    return parsed.success ? parsed.data : DEFAULT_EGRESS;
  } catch {
    return DEFAULT_EGRESS;
  }
}

function parseSealed(stored: string | undefined): Record<string, string> {
  try {
    const value = JSON.parse(stored ?? "{}");
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, string>)
      : {};
  } catch {
    return {};
  }
}

export async function readEnvironment(
  db: Db,
  project: { id: string; repoPath: string },
): Promise<EnvironmentView> {
  const [row, files, repoConfig, branch] = await Promise.all([
    db.projectEnvironment.findUnique({ where: { projectId: project.id } }),
    rootFiles(project.repoPath),
    // Only the default branch's file counts (read with git from the bare repository's HEAD).
    readRepoConfig(project.repoPath),
    defaultBranch(project.repoPath).catch(() => "the default branch"),
  ]);
  const detected = detectSetupCommand(files);
  const repoCommand = repoConfig.status === "ok" ? (repoConfig.config.setup?.command ?? null) : null;
  const chosen = chooseSetupCommand({ project: row?.setupCommand ?? null, repo: repoCommand, detected });
  const hash = chosen ? setupCommandHash(chosen.command) : null;
  const approved = hash !== null && row?.setupApprovedHash === hash;
  return {
    egress: parseEgress(row?.egress),
    setup: {
      command: chosen?.command ?? null,
      source: chosen?.source ?? null,
      detected,
      repoCommand,
      repoProblem: repoConfig.status === "invalid" ? repoConfig.problem : null,
      defaultBranch: branch,
      custom: row?.setupCommand != null,
      hash,
      approved,
      otherApproved: !approved && row?.setupApprovedHash != null,
      approvedById: row?.setupApprovedById ?? null,
      approvedAt: row?.setupApprovedAt ?? null,
    },
    secretNames: Object.keys(parseSealed(row?.setupSecrets)).sort(),
  };
}

async function upsert(
  db: Db,
  projectId: string,
  userId: string,
  data: Record<string, unknown>,
): Promise<void> {
  await db.projectEnvironment.upsert({
    where: { projectId },
    create: { projectId, updatedById: userId, ...data },
    update: { updatedById: userId, ...data },
  });
}

export async function saveEgress(
  db: Db,
  projectId: string,
  userId: string,
  egress: EgressSettings,
): Promise<void> {
  await upsert(db, projectId, userId, { egress: JSON.stringify(EgressSettings.parse(egress)) });
}

/** A new command keeps no approval (unless it is the very text approved before). */
export async function saveSetupCommand(db: Db, projectId: string, userId: string, command: string | null) {
  const trimmed = command?.trim() ? command.trim() : null;
  await upsert(db, projectId, userId, { setupCommand: trimmed });
}

/** A person approves the command they saw: refused when it changed since (the hash differs). */
export async function approveSetup(
  db: Db,
  project: { id: string; repoPath: string },
  userId: string,
  hash: string,
): Promise<"approved" | "changed" | "none"> {
  const view = await readEnvironment(db, project);
  if (!view.setup.hash) return "none";
  if (view.setup.hash !== hash) return "changed";
  await upsert(db, project.id, userId, {
    setupApprovedHash: hash,
    setupApprovedById: userId,
    setupApprovedAt: new Date(),
  });
  return "approved";
}

function secretContext(projectId: string, name: string): string {
  return `project:${projectId}:setup-secret:${name}`;
}

/** Sets (value) or removes (null) one setup secret, sealed like API keys. */
export async function saveSecret(
  db: Db,
  box: SecretBox,
  projectId: string,
  userId: string,
  name: string,
  value: string | null,
): Promise<void> {
  const row = await db.projectEnvironment.findUnique({ where: { projectId } });
  const sealed = parseSealed(row?.setupSecrets);
  if (value === null) delete sealed[name];
  else sealed[name] = box.seal(value, secretContext(projectId, name));
  await upsert(db, projectId, userId, { setupSecrets: JSON.stringify(sealed) });
}

/**
 * The setup secrets in the clear, for the setup exec's environment only. Each value is remembered
 * for redaction, so output that prints one never reaches the event log. A value that does not open
 * (a changed ARBOR_SECRET_KEY) is left out and named.
 */
export async function openSetupSecrets(
  db: Db,
  box: SecretBox,
  projectId: string,
): Promise<{ env: Record<string, string>; unreadable: string[] }> {
  const row = await db.projectEnvironment.findUnique({ where: { projectId } });
  const env: Record<string, string> = {};
  const unreadable: string[] = [];
  for (const [name, sealed] of Object.entries(parseSealed(row?.setupSecrets))) {
    try {
      const value = box.open(sealed, secretContext(projectId, name));
      rememberOpenedKey(value);
      env[name] = value;
    } catch {
      unreadable.push(name);
    }
  }
  return { env, unreadable };
}

/** What a new session of the project gets: its network, the setup command (bound when approved), its secrets. */
export async function sessionEnvironment(
  db: Db,
  box: SecretBox,
  project: { id: string; repoPath: string },
): Promise<SessionEnvironment> {
  const view = await readEnvironment(db, project);
  return {
    projectId: project.id,
    egress: view.egress,
    setup: view.setup.command
      ? {
          command: view.setup.command,
          binding: view.setup.approved ? view.setup.hash : null,
          approvedBy: view.setup.approvedById,
          ...(view.setup.source
            ? { source: view.setup.source, defaultBranch: view.setup.defaultBranch }
            : {}),
        }
      : null,
    openSecrets: () => openSetupSecrets(db, box, project.id),
  };
}
