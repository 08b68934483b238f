import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { UserFacingError } from "@/server/domain/errors";
import {
  instructionFilesOf,
  MAX_INSTRUCTION_FILE_CHARS,
  type ProjectInstruction,
} from "@/server/domain/intent/project-instructions";
import { capEndCounted } from "@/server/domain/text/cap";
import { type ImportSource, LOCAL_SOURCE_REFUSED } from "@/server/projects/import-source";
import { type RemoteCredential, withoutSecrets, withRemoteAuth } from "@/server/projects/remote-access";

const run = promisify(execFile);

/**
 * Git settings for every call the server makes: never prompt for credentials (a prompt would hang
 * the request), never allow the `ext::` transport, which runs arbitrary commands, and run no hook or
 * fsmonitor program a repository could name.
 */
const SAFE_GIT = [
  "-c",
  "protocol.ext.allow=never",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
];
const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "/bin/false" };
const CLONE_TIMEOUT_MS = 120_000;

function git(args: string[], cwd?: string, timeout = 30_000, extraEnv: Record<string, string> = {}) {
  return run("git", [...SAFE_GIT, ...args], {
    cwd,
    env: { ...GIT_ENV, ...extraEnv },
    timeout,
    maxBuffer: 10 * 1024 * 1024,
  });
}

/** Git with the server's safe settings and extra environment (a remote's credential): for remote calls. */
export function gitWithEnv(args: string[], extraEnv: Record<string, string>, timeout = CLONE_TIMEOUT_MS) {
  return git(args, undefined, timeout, extraEnv);
}

export function repoPathFor(dataDir: string, projectId: string): string {
  return path.join(dataDir, "repos", `${projectId}.git`);
}

/** A new bare repository with one commit (a README), so every session has a branch to start from. */
export async function createEmptyRepository(repoPath: string, projectName: string): Promise<void> {
  await createRepositoryWithFiles(repoPath, { "README.md": `# ${projectName}\n` }, "Initial commit");
}

/** A new bare repository whose `main` has one commit of exactly these files (relative paths). */
export async function createRepositoryWithFiles(
  repoPath: string,
  files: Readonly<Record<string, string>>,
  message: string,
): Promise<void> {
  await mkdir(path.dirname(repoPath), { recursive: true });
  await git(["init", "--bare", "--initial-branch=main", repoPath]);
  const work = await mkdtemp(path.join(tmpdir(), "arbor-init-"));
  try {
    await git(["init", "--initial-branch=main", work]);
    for (const [name, content] of Object.entries(files)) {
      const target = path.join(work, name);
      // Only files inside the new work tree: a name is never a way out of it.
      if (!target.startsWith(`${work}${path.sep}`)) throw new Error(`not a relative path: ${name}`);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
    }
    await git(["add", "--", ...Object.keys(files)], work);
    await git(["-c", "user.name=Arbor", "-c", "user.email=arbor@localhost", "commit", "-m", message], work);
    await git(["push", repoPath, "HEAD:main"], work);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Clones `source` (already through `resolveImportSource`) into `repoPath`. Git itself is held to the
 * same policy: a network source runs with the file transport switched off (no redirect or URL trick
 * reaches the server's disk), and a local one is copied through the pack protocol (`--no-local`: only
 * reachable objects, no hard links into the source). A failed local clone says nothing about why.
 * A network source may come with the team's credential for it (issue #21.3), given to this one git
 * process only.
 */
export async function importRepository(
  repoPath: string,
  source: ImportSource,
  credential: RemoteCredential = { kind: "none" },
  onFirstHostKeys?: (knownHosts: string) => Promise<void>,
): Promise<void> {
  await mkdir(path.dirname(repoPath), { recursive: true });
  const args =
    source.kind === "local"
      ? ["-c", "protocol.file.allow=always", "clone", "--bare", "--no-local", "--", source.path, repoPath]
      : ["-c", "protocol.file.allow=never", "clone", "--bare", "--", source.url, repoPath];
  let secrets: string[] = [];
  try {
    await withRemoteAuth(
      source.kind === "local" ? { kind: "none" } : credential,
      (auth) => {
        secrets = auth.secrets;
        return git(args, undefined, CLONE_TIMEOUT_MS, auth.env);
      },
      { pinned: null, onFirstUse: onFirstHostKeys },
    );
  } catch (error) {
    await rm(repoPath, { recursive: true, force: true });
    if (source.kind === "local") throw new UserFacingError(LOCAL_SOURCE_REFUSED, "BAD_REQUEST");
    const stderr = withoutSecrets((error as { stderr?: string }).stderr ?? "", secrets);
    const firstLine = stderr.split("\n").find((line) => line.startsWith("fatal:")) ?? "git clone failed";
    throw new UserFacingError(
      `Could not import the repository: ${firstLine.replace(/^fatal:\s*/, "")}`,
      "BAD_REQUEST",
    );
  }
}

export async function removeRepository(repoPath: string): Promise<void> {
  await rm(repoPath, { recursive: true, force: true });
}

/** Stores a bundle's HEAD as `branch` in the bare repository (replacing an earlier save of it). */
export async function fetchBundle(repoPath: string, bundlePath: string, branch: string): Promise<string> {
  await git(["-C", repoPath, "fetch", "-q", bundlePath, `+HEAD:refs/heads/${branch}`]);
  const { stdout } = await git(["-C", repoPath, "rev-parse", `refs/heads/${branch}`]);
  return stdout.trim();
}

/** Stores a bundle's `ref` in the bare repository as `target` (a hidden ref: refs/arbor/…), returning its commit. */
export async function fetchBundleRef(
  repoPath: string,
  bundlePath: string,
  ref: string,
  target: string,
): Promise<string> {
  await git(["-C", repoPath, "fetch", "-q", bundlePath, `+${ref}:${target}`]);
  const { stdout } = await git(["-C", repoPath, "rev-parse", target]);
  return stdout.trim();
}

/** The refs under `prefix` in the bare repository (e.g. a session's snapshots). */
export async function refsUnder(repoPath: string, prefix: string): Promise<string[]> {
  const { stdout } = await git(["-C", repoPath, "for-each-ref", "--format=%(refname)", prefix]);
  return stdout.split("\n").filter(Boolean);
}

export async function defaultBranch(repoPath: string): Promise<string> {
  const { stdout } = await git(["-C", repoPath, "symbolic-ref", "--short", "HEAD"]);
  return stdout.trim() || "main";
}

export async function changedFiles(repoPath: string, base: string, branch: string): Promise<string[]> {
  const { stdout } = await git(["-C", repoPath, "diff", "--name-only", `${base}...${branch}`]);
  return stdout.split("\n").filter(Boolean);
}

/**
 * Merges `branch` into `into` in the bare repository, through a temporary clone (a bare repository has
 * no working tree to merge in). A conflict aborts cleanly and names the files; nothing is pushed.
 */
export async function mergeBranch(
  repoPath: string,
  branch: string,
  into: string,
  message: string,
): Promise<string> {
  const work = await mkdtemp(path.join(tmpdir(), "arbor-merge-"));
  try {
    await git(["clone", "-q", "--branch", into, "--", repoPath, work]);
    try {
      await git(
        [
          "-c",
          "user.name=Arbor",
          "-c",
          "user.email=arbor@localhost",
          "merge",
          "--no-ff",
          "-q",
          "-m",
          message,
          `origin/${branch}`,
        ],
        work,
      );
    } catch {
      const { stdout } = await git(["diff", "--name-only", "--diff-filter=U"], work);
      await git(["merge", "--abort"], work).catch(() => undefined);
      const files = stdout.split("\n").filter(Boolean);
      throw new UserFacingError(
        `The session's work conflicts with ${into}${files.length ? ` in ${files.join(", ")}` : ""}; nothing was merged.`,
        "CONFLICT",
      );
    }
    await git(["push", "-q", "origin", `HEAD:${into}`], work);
    const { stdout } = await git(["rev-parse", "HEAD"], work);
    return stdout.trim();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export async function deleteBranch(repoPath: string, branch: string): Promise<void> {
  await git(["-C", repoPath, "update-ref", "-d", `refs/heads/${branch}`]).catch(() => undefined);
}

/** The names at the root of the default branch (files and folders); empty for an empty repository. */
export async function rootFiles(repoPath: string): Promise<string[]> {
  try {
    const { stdout } = await git(["-C", repoPath, "ls-tree", "--name-only", "HEAD"]);
    return stdout.split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

export interface RepositorySummary {
  defaultBranch: string;
  /** Names at the root of the default branch. */
  files: string[];
  commits: Array<{ hash: string; subject: string; author: string; date: string }>;
  branches: Array<{ name: string; commit: string; date: string }>;
}

const FIELD = "\x1f";

/** What the project holds, for its page: root files, the latest commits and the branches, newest first. */
export async function repositorySummary(repoPath: string, limit = 10): Promise<RepositorySummary> {
  const lines = async (args: string[]) => {
    try {
      const { stdout } = await git(["-C", repoPath, ...args]);
      return stdout.split("\n").filter(Boolean);
    } catch {
      return []; // an empty repository has no HEAD yet
    }
  };
  const [branch, files, log, refs] = await Promise.all([
    defaultBranch(repoPath).catch(() => "main"),
    rootFiles(repoPath),
    lines(["log", `-n${limit}`, `--format=%H${FIELD}%s${FIELD}%an${FIELD}%cI`, "HEAD"]),
    lines([
      "for-each-ref",
      "--sort=-committerdate",
      `--count=${limit * 2}`,
      `--format=%(refname:short)${FIELD}%(objectname)${FIELD}%(committerdate:iso-strict)`,
      "refs/heads",
    ]),
  ]);
  return {
    defaultBranch: branch,
    files,
    commits: log.map((line) => {
      const [hash = "", subject = "", author = "", date = ""] = line.split(FIELD);
      return { hash, subject, author, date };
    }),
    branches: refs.map((line) => {
      const [name = "", commit = "", date = ""] = line.split(FIELD);
      return { name, commit, date };
    }),
  };
}

/**
 * The project's AGENTS.md / CLAUDE.md files as the default branch (the bare repository's HEAD) has
 * them, root first (issue #21.1): the only version the server trusts, shown on the project page and
 * sent to the model. An empty repository, or one without them, has none.
 */
export async function defaultBranchInstructions(repoPath: string): Promise<ProjectInstruction[]> {
  let listing: string;
  try {
    listing = (await git(["-C", repoPath, "ls-tree", "-r", "--name-only", "HEAD"])).stdout;
  } catch {
    return [];
  }
  const read: ProjectInstruction[] = [];
  for (const file of instructionFilesOf(listing.split("\n").filter(Boolean))) {
    const { stdout } = await git(["-C", repoPath, "show", `HEAD:${file}`]);
    read.push({ path: file, text: capEndCounted(stdout, MAX_INSTRUCTION_FILE_CHARS) });
  }
  return read;
}

/**
 * One file as the default branch (the bare repository's HEAD) has it, or null when the branch or
 * the file does not exist. Never a session's branch or workspace: what the server trusts was merged.
 */
export async function defaultBranchFile(repoPath: string, file: string): Promise<string | null> {
  try {
    const { stdout } = await git(["-C", repoPath, "cat-file", "blob", `HEAD:${file}`]);
    return stdout;
  } catch {
    return null;
  }
}
