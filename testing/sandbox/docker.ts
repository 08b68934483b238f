import "server-only";
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";

/** Shared by the sandbox's integration tests: real Docker, real git, each file its own instance label. */
export const ROOT = path.resolve(import.meta.dirname, "../..");
export const PREFIX = `it-${randomBytes(4).toString("hex")}`;
export const silent = pino({ level: "silent" });
export const tempDirs: string[] = [];

export function git(args: string[], cwd?: string): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** A bare repo; with `withCommit`, main holds one commit with README.md, pushed from a temp clone. */
export function makeBareRepo(withCommit: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-sbx-"));
  tempDirs.push(dir);
  const bare = path.join(dir, "project.git");
  git(["init", "-q", "--bare", "--initial-branch=main", bare]);
  if (withCommit) {
    const work = path.join(dir, "work");
    git(["clone", "-q", bare, work]);
    writeFileSync(path.join(work, "README.md"), "# Sandbox test project\n");
    git(["add", "README.md"], work);
    git(["-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "init"], work);
    git(["push", "-q", "origin", "HEAD:main"], work);
  }
  return bare;
}

export function dockerInspect(name: string): {
  HostConfig: Record<string, unknown>;
  Config: { User: string };
  Mounts: unknown[];
} {
  return JSON.parse(execFileSync("docker", ["inspect", name], { encoding: "utf8" }))[0];
}

export function containerExists(name: string): boolean {
  return spawnSync("docker", ["inspect", name], { stdio: "ignore" }).status === 0;
}

export function dockerInspectId(name: string): string {
  return execFileSync("docker", ["inspect", "-f", "{{.Id}}", name], { encoding: "utf8" }).trim();
}

/** A provider of this test file's own, with the image built (or confirmed current) first. */
export function testProvider(suffix: string): DockerSandboxProvider {
  execFileSync("bash", [path.join(ROOT, "sandbox-image/build.sh")], { stdio: "pipe" });
  return new DockerSandboxProvider({ logger: silent, instance: `${PREFIX}-${suffix}` });
}

/** Removes this run's containers and temp directories. */
export async function cleanUp(provider: DockerSandboxProvider | undefined): Promise<void> {
  await provider?.sweepOrphans((ids) => new Set(ids.filter((id) => !id.startsWith(PREFIX))));
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
