import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import YAML from "yaml";
import { checkRepoConfig } from "@/server/domain/settings/repo-config";
import { configList, init } from "./commands";
import { EXIT, exitCodeOf } from "./exit-codes";
import {
  loadCredentials,
  repoSetupCommand,
  resolveSettings,
  saveCredentials,
  setSetting,
  userConfigFile,
  userRepoOnlyKeys,
  userServerLayer,
} from "./settings";

let cwd: string;
let saved: NodeJS.ProcessEnv;

beforeEach(() => {
  saved = { ...process.env };
  cwd = process.cwd();
  const root = mkdtempSync(path.join(tmpdir(), "arbor-cli-test-"));
  process.env.ARBOR_CONFIG_DIR = path.join(root, "config");
  for (const key of ["ARBOR_URL", "ARBOR_TOKEN", "ARBOR_PROJECT", "ARBOR_MODE", "ARBOR_APPROVE"])
    delete process.env[key];
  const repo = path.join(root, "repo");
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  mkdirSync(path.join(repo, "src"));
  process.chdir(path.join(repo, "src"));
});
afterEach(() => {
  process.chdir(cwd);
  process.env = saved;
});

describe("the CLI's settings", () => {
  it("take flags over env over the repository over the user over defaults, and say where each came from", async () => {
    expect((await resolveSettings()).mode).toEqual({ value: "agent", source: "default" });
    await setSetting("mode", "chat", "user");
    await setSetting("project", "User project", "user");
    expect((await resolveSettings()).mode).toEqual({ value: "chat", source: "user" });
    const repoFile = await setSetting("project", "Repo project", "repo");
    expect(repoFile).toMatch(/repo\/\.arbor\/config\.yaml$/); // found from a subfolder
    expect((await resolveSettings()).project).toEqual({ value: "Repo project", source: "repo" });
    process.env.ARBOR_PROJECT = "Env project";
    process.env.ARBOR_APPROVE = "fs.write, command";
    const fromEnv = await resolveSettings();
    expect(fromEnv.project).toEqual({ value: "Env project", source: "env" });
    expect(fromEnv.approve).toEqual({ value: ["fs.write", "command"], source: "env" });
    expect((await resolveSettings({ project: "Flag project" })).project.source).toBe("flag");
  });

  it("refuse an unknown key or a bad value, and leave the file as it was", async () => {
    await expect(setSetting("colour", "blue", "user")).rejects.toThrow(/Unknown setting "colour"/);
    await expect(setSetting("mode", "turbo", "user")).rejects.toThrow(/mode:/);
    expect((await resolveSettings()).mode.source).toBe("default");
  });

  it("read a repository file that also holds the server's keys, and keep those keys when setting one", async () => {
    const file = path.join(process.cwd(), "..", ".arbor", "config.yaml");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      "mode: chat\nmodel:\n  name: repo-model\ncheckpoints:\n  commands: ask-always\nlimits:\n  maxDepth: 3\nsetup:\n  command: npm ci\n",
    );
    expect((await resolveSettings()).mode).toEqual({ value: "chat", source: "repo" });
    await setSetting("project", "shop", "repo");
    const written = readFileSync(file, "utf8");
    expect(written).toContain("project: shop");
    expect(written).toContain("name: repo-model");
    expect(written).toContain("commands: ask-always");
    expect(written).toContain("command: npm ci");
    expect(written).toContain("maxDepth: 3");
  });
});

describe("the user file's server keys (issue #20)", () => {
  const writeUserFile = (text: string) => {
    mkdirSync(path.dirname(userConfigFile()), { recursive: true });
    writeFileSync(userConfigFile(), text);
  };

  it("are checked with the server's schema and sent as the run's layer; config list names the file", async () => {
    writeUserFile(
      "mode: chat\ncheckpoints:\n  commands: ask-always\nlimits:\n  maxIterations: 3\nmodel:\n  name: mine\nsandbox:\n  cpus: 1\n",
    );
    expect(await userServerLayer()).toEqual({
      checkpoints: { commands: "ask-always" },
      limits: { maxIterations: 3 },
      model: { name: "mine" },
    });
    expect(await userRepoOnlyKeys()).toEqual(["sandbox"]);
    const repoFile = path.join(process.cwd(), "..", ".arbor", "config.yaml");
    mkdirSync(path.dirname(repoFile), { recursive: true });
    writeFileSync(repoFile, "setup:\n  command: npm ci\n");
    const lines: string[] = [];
    configList(
      await resolveSettings(),
      {
        userFile: "~/.config/arbor/config.yaml",
        userLayer: await userServerLayer(),
        userRepoOnly: await userRepoOnlyKeys(),
        repoSetupCommand: await repoSetupCommand(),
      },
      false,
      (line) => lines.push(line),
    );
    expect(lines).toContain("mode = chat  (user)");
    expect(
      lines.find((line) => line.startsWith("limits.maxIterations = 3  (~/.config/arbor/config.yaml;")),
    ).toBeDefined();
    expect(
      lines.find((line) =>
        line.startsWith("checkpoints.commands = ask-always  (~/.config/arbor/config.yaml;"),
      ),
    ).toBeDefined();
    expect(
      lines.find((line) => line.startsWith("! sandbox in ~/.config/arbor/config.yaml is not used")),
    ).toBeDefined();
    expect(
      lines.find((line) => line.startsWith("setup.command = npm ci  (.arbor/config.yaml in this checkout")),
    ).toBeDefined();
  });

  it("`arbor init` writes a commented setup hint that stays valid config", async () => {
    await init(await resolveSettings({ project: "shop" }), false, () => {});
    const file = path.join(process.cwd(), "..", ".arbor", "config.yaml");
    expect(readFileSync(file, "utf8")).toContain("# setup:\n#   command: npm ci");
    expect((await resolveSettings()).project).toEqual({ value: "shop", source: "repo" });
    expect(await repoSetupCommand()).toBeNull();
    expect(checkRepoConfig(YAML.parse(readFileSync(file, "utf8"))).status).toBe("ok");
  });

  it("stop the CLI on a bad value, naming the file and the key", async () => {
    writeUserFile("limits:\n  maxIterations: 0\n");
    await expect(userServerLayer()).rejects.toThrow(`${userConfigFile()}: limits.maxIterations:`);
    writeUserFile("checkpoints:\n  commands: sometimes\n");
    await expect(resolveSettings()).rejects.toThrow(`${userConfigFile()}: checkpoints.commands:`);
    // A provider or a key is never a person's to set in a file.
    writeUserFile("model:\n  provider: openai\n");
    await expect(userServerLayer()).rejects.toThrow(/model: Unrecognized key: "provider"/);
  });
});

describe("the CLI's credentials", () => {
  it("are stored 0600 and the environment overrides them", async () => {
    const file = await saveCredentials({ url: "http://localhost:3000", token: "arb_secret" });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await loadCredentials()).toEqual({ url: "http://localhost:3000", token: "arb_secret" });
    process.env.ARBOR_TOKEN = "arb_from_ci";
    expect((await loadCredentials()).token).toBe("arb_from_ci");
  });

  it("are refused when missing (exit 6) or not an Arbor token", async () => {
    await expect(loadCredentials()).rejects.toMatchObject({ code: EXIT.UNAUTHORIZED });
    await expect(saveCredentials({ url: "http://x", token: "ghp_nope" })).rejects.toThrow(/starts with arb_/);
  });
});

describe("exit codes", () => {
  it("are 0 for VERIFIED only, each other end its own, an unknown status an error", () => {
    const codes = ["VERIFIED", "ANSWERED", "FAILED", "STOPPED"].map(exitCodeOf);
    expect(codes).toEqual([0, 2, 3, 4]);
    expect(exitCodeOf("RUNNING")).toBe(EXIT.ERROR);
    expect(new Set(Object.values(EXIT)).size).toBe(Object.keys(EXIT).length);
  });
});
