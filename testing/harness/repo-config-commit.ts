import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Commits `.arbor/config.yaml` with this text on a bare repository's default branch, as a merge would
 * (clone, commit, push), for tests of the repository settings layer.
 */
export async function commitRepoConfig(repoPath: string, text: string): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), "arbor-repo-config-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@localhost", ...args], {
      cwd: work,
      stdio: "pipe",
    });
  try {
    git("clone", "-q", repoPath, ".");
    await mkdir(path.join(work, ".arbor"), { recursive: true });
    await writeFile(path.join(work, ".arbor", "config.yaml"), text);
    git("add", "-A");
    git("commit", "-q", "-m", "config");
    git("push", "-q", "origin", "HEAD");
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
