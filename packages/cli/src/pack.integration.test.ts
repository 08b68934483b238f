import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The publishable CLI (issue #20.2): `npm pack` of packages/cli bundles it (prepack → build.mjs), and
 * the tarball installed into an empty folder outside the repository runs with plain `node` — no tsx,
 * no sources, no dependencies to fetch.
 */
const CLI = path.resolve(__dirname, "..");
let dir: string;
let bin: string;

const npm = (args: string[], cwd: string) =>
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "arbor-cli-pack-"));
  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", dir], CLI)) as {
    filename: string;
    files: { path: string }[];
  }[];
  const [tarball] = packed;
  if (!tarball) throw new Error("npm pack wrote no tarball");
  // Only the launcher, the bundle and the manifest: no TypeScript sources.
  expect(tarball.files.map((file) => file.path).sort()).toEqual([
    "bin/arbor.mjs",
    "dist/arbor.mjs",
    "package.json",
  ]);
  const install = path.join(dir, "install");
  npm(["install", "--offline", "--prefix", install, path.join(dir, tarball.filename)], dir);
  bin = path.join(install, "node_modules", ".bin", "arbor");
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const arbor = (...args: string[]) =>
  execFileSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    // Nothing from the repository: no tsx loader, no credentials of the person running the tests.
    env: { PATH: process.env.PATH ?? "", HOME: dir, NODE_ENV: "production" },
  });

describe("the packed arbor CLI", () => {
  it("installs with no dependencies and prints its version", async () => {
    const manifest = JSON.parse(await readFile(path.join(CLI, "package.json"), "utf8")) as {
      version: string;
    };
    expect(arbor("version").trim()).toBe(`arbor ${manifest.version}`);
    const installed = await readdir(path.join(dir, "install", "node_modules"));
    expect(installed.filter((name) => !name.startsWith("."))).toEqual(["@arbor"]);
  });

  it("prints its help with every command", () => {
    const help = arbor("--help");
    for (const command of ["login", "run", "approve", "status", "history", "config", "chat", "init"])
      expect(help).toMatch(new RegExp(`^  ${command}\\b`, "m"));
  });
});
