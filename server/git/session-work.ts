import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { UserFacingError } from "@/server/domain/errors";
import { refusalFor, repositoryPrograms } from "@/server/governance/repository-programs";
import { changedFiles, defaultBranch, fetchBundle } from "@/server/projects/git-repository";
import type { Sandbox } from "@/server/sandbox/types";
import { type StagedFinding, secretsInStagedDiff } from "./staged-secrets";

const BIG = { timeoutMs: 120_000, maxOutputBytes: 96 * 1024 * 1024 };

export type SaveResult =
  | { status: "saved"; commit: string; files: string[]; secretsOverridden: boolean }
  | { status: "blocked"; findings: StagedFinding[] };

/**
 * Saves the session's work to the project: everything in /workspace is committed on the session's
 * branch (after a secret scan of what is staged — a finding blocks unless the person overrides), the
 * branch travels to the host as a git bundle, and the project's bare repository gets it as
 * `branch`. Nothing is pushed anywhere else and no history is rewritten.
 */
export async function saveSessionWork(
  sandbox: Sandbox,
  project: { repoPath: string; branch: string },
  options: { message: string; allowSecrets: boolean },
): Promise<SaveResult> {
  // `git add` would run a filter driver the repository's own config names: refuse before staging.
  const programs = await repositoryPrograms((command) => sandbox.exec(command));
  if (programs.length > 0) throw new UserFacingError(refusalFor(programs), "PRECONDITION_FAILED");
  const staged = await sandbox.exec("git add -A && git diff --cached --unified=0 --no-color", BIG);
  if (staged.exitCode !== 0) throw new Error(`could not stage the work: ${staged.stderr.trim()}`);
  const findings = secretsInStagedDiff(staged.stdout);
  if (findings.length > 0 && !options.allowSecrets) {
    await sandbox.exec("git reset -q", BIG);
    return { status: "blocked", findings };
  }
  if (staged.stdout.trim() !== "") {
    const message = options.message.trim() || "Arbor session work";
    const committed = await sandbox.exec(`git commit -q -F -`, { ...BIG, stdin: message });
    if (committed.exitCode !== 0) throw new Error(`could not commit the work: ${committed.stderr.trim()}`);
  }
  const bundleName = `/tmp/arbor-${randomUUID()}.bundle`;
  const bundled = await sandbox.exec(
    `git bundle create -q ${bundleName} HEAD && base64 -w0 ${bundleName}; status=$?; rm -f ${bundleName}; exit $status`,
    BIG,
  );
  if (bundled.exitCode !== 0 || bundled.truncated)
    throw new Error(`could not bundle the work: ${bundled.stderr.trim() || "too large"}`);
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-bundle-"));
  try {
    const file = path.join(dir, "work.bundle");
    await writeFile(file, Buffer.from(bundled.stdout, "base64"));
    const commit = await fetchBundle(project.repoPath, file, project.branch);
    const files = await changedFiles(project.repoPath, await defaultBranch(project.repoPath), project.branch);
    return { status: "saved", commit, files, secretsOverridden: findings.length > 0 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The largest diff the Changes tab shows; the rest is cut and said so. */
const DIFF_LIMIT = { timeoutMs: 60_000, maxOutputBytes: 2 * 1024 * 1024 };

export interface WorkspaceDiff {
  /** The commit the session's work is compared with: where the session's branch left the project's. */
  base: string;
  diff: string;
  truncated: boolean;
}

/**
 * The session's changes as a unified diff against where it started (the merge base of HEAD and the
 * project's default branch): commits made in the sandbox, edits and new files alike. Staged through a
 * throw-away index, so the workspace's own index is never touched; refused like Save when the
 * repository's git configuration names programs, and external diff or textconv drivers never run.
 */
export async function workspaceDiff(sandbox: Sandbox): Promise<WorkspaceDiff> {
  const programs = await repositoryPrograms((command) => sandbox.exec(command));
  if (programs.length > 0) throw new UserFacingError(refusalFor(programs), "PRECONDITION_FAILED");
  const script = [
    "base=$(git merge-base HEAD origin/HEAD 2>/dev/null || git rev-parse HEAD) || exit 3",
    // A copy of the real index keeps git's stat cache (fast); without one, git starts an empty index.
    "index=$(mktemp) || exit 3",
    'cp "$(git rev-parse --git-path index)" "$index" 2>/dev/null || rm -f "$index"',
    "trap 'rm -f \"$index\"' EXIT",
    'echo "$base"',
    'GIT_INDEX_FILE="$index" git add -A >/dev/null && GIT_INDEX_FILE="$index" git diff --cached --no-color --no-ext-diff --no-textconv "$base"',
  ].join("\n");
  const result = await sandbox.exec(script, DIFF_LIMIT);
  if (result.exitCode !== 0 && !result.truncated)
    throw new UserFacingError(
      `Could not compare the workspace with its base: ${result.stderr.trim() || `git exited with ${result.exitCode}`}. Open the terminal and run \`git status\` to see why.`,
      "PRECONDITION_FAILED",
    );
  const newline = result.stdout.indexOf("\n");
  return {
    base: result.stdout.slice(0, newline).trim(),
    diff: result.stdout.slice(newline + 1),
    truncated: result.truncated,
  };
}
