import { realpath } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UserFacingError } from "@/server/domain/errors";

/**
 * Where a project may be imported from. Network git URLs (https, ssh, git, scp-like — loopback included,
 * a team's own git server may live there) are always allowed. A local path or `file://` URL reads the
 * server's own disk, so it is refused unless the administrator named a root for local imports
 * (`ARBOR_IMPORT_LOCAL_ROOT`), and even then never inside Arbor's data directory, where every team's
 * repositories live.
 */
export interface ImportPolicy {
  /** Absolute directory under which local repositories may be imported; undefined: none. */
  localRoot: string | undefined;
  /** Arbor's data directory: never importable, whatever the root says. */
  dataDir: string;
}

export type ImportSource = { kind: "network"; url: string } | { kind: "local"; path: string };

/**
 * One message for every refused or unreadable local source — missing, not a repository, outside the
 * root, inside the data directory, not allowed at all — so the answer says nothing about the server's
 * disk.
 */
export const LOCAL_SOURCE_REFUSED =
  "Could not import the repository: local paths are not importable here (or the repository cannot be read). Give a network git URL (https://…, ssh://…, git@host:repo).";

const NETWORK_URL = /^(https?|ssh|git):\/\/[^/\s]/i;
const SCP_LIKE = /^[\w.-]+@[\w.-]+:/;

function badRequest(message: string): UserFacingError {
  return new UserFacingError(message, "BAD_REQUEST");
}

/** Syntax only: which kind of source this is, or a clear error. Touches nothing on disk. */
export function classifySource(source: string): ImportSource {
  const trimmed = source.trim();
  if (trimmed.startsWith("-")) throw badRequest("A repository URL cannot start with '-'.");
  if (/^[a-z][\w+.-]*::/i.test(trimmed)) throw badRequest("Remote helper URLs (like ext::) are not allowed.");
  if (NETWORK_URL.test(trimmed) || SCP_LIKE.test(trimmed)) return { kind: "network", url: trimmed };
  if (/^file:/i.test(trimmed)) {
    try {
      return { kind: "local", path: fileURLToPath(trimmed) };
    } catch {
      throw badRequest(LOCAL_SOURCE_REFUSED);
    }
  }
  if (trimmed.startsWith("/")) return { kind: "local", path: trimmed };
  throw badRequest(
    "Give a git URL (https://…, ssh://…, git@host:repo) or a file:// path to a repository the server can reach.",
  );
}

function inside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

async function real(target: string): Promise<string | null> {
  try {
    return await realpath(target);
  } catch {
    return null;
  }
}

/**
 * The source git may clone, after the policy: a local path comes back resolved (symlinks followed), so
 * what git reads is what was checked. Every refusal of a local path throws the same error.
 */
export async function resolveImportSource(source: string, policy: ImportPolicy): Promise<ImportSource> {
  const classified = classifySource(source);
  if (classified.kind === "network") return classified;
  if (!policy.localRoot) throw badRequest(LOCAL_SOURCE_REFUSED);
  const [target, root, dataDir] = await Promise.all([
    real(classified.path),
    real(policy.localRoot),
    real(policy.dataDir),
  ]);
  if (!target || !root) throw badRequest(LOCAL_SOURCE_REFUSED);
  if (!inside(target, root)) throw badRequest(LOCAL_SOURCE_REFUSED);
  if (inside(target, dataDir ?? path.resolve(policy.dataDir))) throw badRequest(LOCAL_SOURCE_REFUSED);
  return { kind: "local", path: target };
}
