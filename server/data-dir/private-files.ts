import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * Arbor's data directory holds the SQLite database (password hashes, every event), the generated
 * secrets and every team's repositories: nobody but the server's own user may read it.
 *
 * `process.umask(0o077)` makes everything the server and its child processes (git, SQLite's WAL and
 * shared-memory files) create from now on 0600 / 0700; the walk fixes what an older Arbor, a
 * `prisma migrate deploy` or a restored backup left readable by others. Owner bits are kept as they
 * are (git's read-only objects stay read-only, hooks stay executable).
 */
export const PRIVATE_UMASK = 0o077;

export interface SecureDataDirResult {
  /** Paths whose group/other permission bits were removed. */
  fixed: string[];
}

function stripOthers(target: string, fixed: string[]): void {
  const stat = lstatSync(target, { throwIfNoEntry: false });
  if (!stat || stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) {
    chmodSync(target, stat.mode & 0o700);
    fixed.push(target);
  }
  if (stat.isDirectory()) {
    for (const entry of readdirSync(target)) stripOthers(path.join(target, entry), fixed);
  }
}

/** SQLite's database file named by a `file:` URL, with the side files SQLite creates next to it. */
export function sqliteFiles(databaseUrl: string): string[] {
  if (!databaseUrl.startsWith("file:")) return [];
  const file = path.resolve(databaseUrl.slice("file:".length).replace(/\?.*$/, ""));
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

export function secureDataDir(options: { dataDir: string; databaseUrl: string }): SecureDataDirResult {
  process.umask(PRIVATE_UMASK);
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const fixed: string[] = [];
  stripOthers(options.dataDir, fixed);
  for (const file of sqliteFiles(options.databaseUrl)) stripOthers(file, fixed);
  return { fixed };
}
