import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-env-cmd-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The build's and the start command's env steps, as scripts/lib.sh runs them (tsx, the real process). */
function run(script: string, env: Record<string, string>) {
  const { NEXTAUTH_SECRET: _a, ARBOR_SECRET_KEY: _b, ...inherited } = process.env;
  return spawnSync("npx", ["--no-install", "tsx", script], {
    cwd: root,
    env: { ...inherited, ...env },
    encoding: "utf8",
  });
}

describe("the environment at build and at start", () => {
  it("the build's check passes without any secret and writes nothing", () => {
    const dir = dataDir();
    const result = run("scripts/check-env.ts", { ARBOR_DATA_DIR: path.join(dir, "data") });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("environment ok");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("the build's check fails on a bad shape, listing every problem", () => {
    const result = run("scripts/check-env.ts", {
      ARBOR_DATA_DIR: dataDir(),
      ARBOR_SANDBOX_POOL_SIZE: "99",
      ARBOR_MODEL_PROVIDER: "mistral",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /Invalid environment:\n(.|\n)*ARBOR_MODEL_PROVIDER: (.|\n)*ARBOR_SANDBOX_POOL_SIZE: /,
    );
  });

  it("the start command creates the secrets once, owner-only, and keeps them", () => {
    const dir = path.join(dataDir(), "data");
    const first = run("scripts/ensure-secrets.ts", { ARBOR_DATA_DIR: dir });
    expect(first.status).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["auth-secret", "secret-key"]);
    for (const name of ["auth-secret", "secret-key"])
      expect(statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
    const before = readFileSync(path.join(dir, "secret-key"), "utf8");
    const second = run("scripts/ensure-secrets.ts", { ARBOR_DATA_DIR: dir });
    expect(second.status).toBe(0);
    expect(second.stdout).not.toContain("created");
    expect(readFileSync(path.join(dir, "secret-key"), "utf8")).toBe(before);
  });
});
