import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fetchBundleRef, refsUnder } from "@/server/projects/git-repository";
import type { Sandbox } from "@/server/sandbox/types";

const BIG = { timeoutMs: 120_000, maxOutputBytes: 96 * 1024 * 1024 };

/** The hidden refs a session's snapshots live under in the project's bare repository. */
export function snapshotPrefix(sessionId: string): string {
  return `refs/arbor/sessions/${sessionId}/snapshots/`;
}

/**
 * Commits the whole workspace (tracked and untracked, .gitignore respected) on top of HEAD through a
 * throw-away index — the session's branch, index and working tree are left exactly as they are — and
 * stores it in the project's bare repository as the session's next snapshot ref. The bundle carries
 * only what the repository does not have yet.
 */
export async function snapshotWorkspace(
  sandbox: Sandbox,
  project: { repoPath: string },
  sessionId: string,
  message: string,
): Promise<{ ref: string; commit: string }> {
  const bundleName = `/tmp/arbor-${randomUUID()}.bundle`;
  const script = [
    "set -e",
    "index=$(mktemp)",
    `trap 'rm -f "$index" ${bundleName}' EXIT`,
    'cp "$(git rev-parse --git-path index)" "$index" 2>/dev/null || true',
    'GIT_INDEX_FILE="$index" git add -A >/dev/null',
    'tree=$(GIT_INDEX_FILE="$index" git write-tree)',
    'commit=$(git -c user.name=Arbor -c user.email=arbor@localhost commit-tree "$tree" -p HEAD -F -)',
    'git update-ref refs/arbor/snapshot "$commit"',
    `git bundle create -q ${bundleName} refs/arbor/snapshot --not --remotes >/dev/null 2>&1 || git bundle create -q ${bundleName} refs/arbor/snapshot`,
    `base64 -w0 ${bundleName}`,
  ].join("\n");
  const bundled = await sandbox.exec(script, { ...BIG, stdin: message });
  if (bundled.exitCode !== 0 || bundled.truncated)
    throw new Error(`could not snapshot the workspace: ${bundled.stderr.trim() || "too large"}`);
  const taken = await refsUnder(project.repoPath, snapshotPrefix(sessionId));
  const ref = `${snapshotPrefix(sessionId)}${taken.length + 1}`;
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-snapshot-"));
  try {
    const file = path.join(dir, "snapshot.bundle");
    await writeFile(file, Buffer.from(bundled.stdout, "base64"));
    const commit = await fetchBundleRef(project.repoPath, file, "refs/arbor/snapshot", ref);
    return { ref, commit };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Puts a snapshot back into a fresh sandbox (cloned from the project's repository, which carries the
 * snapshot refs): the branch moves to the commit the snapshot was taken on, and the working tree and
 * index get the snapshot's content (uncommitted work comes back staged).
 */
export async function restoreSnapshot(sandbox: Sandbox, ref: string): Promise<void> {
  if (!/^refs\/arbor\/sessions\/[A-Za-z0-9_-]+\/snapshots\/\d+$/.test(ref))
    throw new Error(`not a snapshot ref: ${ref}`);
  const restored = await sandbox.exec(
    `set -e\ngit fetch -q origin "+${ref}:refs/arbor/restored"\ngit reset -q --hard refs/arbor/restored\ngit reset -q --soft HEAD^`,
    BIG,
  );
  if (restored.exitCode !== 0) throw new Error(`could not restore the snapshot: ${restored.stderr.trim()}`);
}
