import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import YAML from "yaml";
import { z } from "zod";
import { UserSettings } from "@/server/domain/settings/user-config";
import { CliError, EXIT } from "./exit-codes";

/**
 * Where the CLI keeps what it knows, and the only module reading the environment:
 * - credentials (server URL and token) in `<config dir>/credentials.json`, mode 0600 (`arbor login`);
 *   `ARBOR_URL` and `ARBOR_TOKEN` override them (a CI job sets both and never logs in);
 * - the CLI's settings in layers, highest first: flags > environment (`ARBOR_PROJECT`, `ARBOR_MODE`,
 *   `ARBOR_APPROVE`) > the repository's `.arbor/config.yaml` > the user's `<config dir>/config.yaml`
 *   > defaults. The config dir is `$ARBOR_CONFIG_DIR`, else `$XDG_CONFIG_HOME/arbor`, else
 *   `~/.config/arbor`;
 * - the user file's server keys (`model`, `checkpoints`, `limits`, `budgets`: a person's own settings),
 *   checked with the server's own schema and sent with each run `arbor run` and `arbor chat` start,
 *   where they are that run's person layer (issue #20).
 */

/** Read at each call: a test (or an embedding program) may replace `process.env`. */
const env = (): NodeJS.ProcessEnv => process.env;

export function configDir(): string {
  const chosen = env().ARBOR_CONFIG_DIR;
  if (chosen) return chosen;
  const base = env().XDG_CONFIG_HOME || path.join(homedir(), ".config");
  return path.join(base, "arbor");
}

const Credentials = z.object({
  url: z.url("The server URL must be a full URL, like https://arbor.example.com."),
  token: z.string().startsWith("arb_", "An Arbor API token starts with arb_."),
});
export type Credentials = z.infer<typeof Credentials>;

const credentialsFile = () => path.join(configDir(), "credentials.json");

export async function saveCredentials(credentials: Credentials): Promise<string> {
  const parsed = Credentials.safeParse(credentials);
  if (!parsed.success) throw new CliError(parsed.error.issues.map((issue) => issue.message).join(" "));
  const dir = configDir();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = credentialsFile();
  await writeFile(file, `${JSON.stringify(parsed.data, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600); // an existing file keeps its old mode on write
  return file;
}

/** The server and token to use: the environment first, then `arbor login`'s file. */
export async function loadCredentials(): Promise<Credentials> {
  let stored: Partial<Credentials> = {};
  if (existsSync(credentialsFile())) {
    try {
      stored = JSON.parse(await readFile(credentialsFile(), "utf8")) as Partial<Credentials>;
    } catch {
      throw new CliError(`${credentialsFile()} is not valid JSON. Run \`arbor login\` again.`);
    }
  }
  const url = env().ARBOR_URL || stored.url;
  const token = env().ARBOR_TOKEN || stored.token;
  if (!url || !token)
    throw new CliError(
      "Not logged in. Run `arbor login` (or set ARBOR_URL and ARBOR_TOKEN). Create a token on your team's page in Arbor.",
      EXIT.UNAUTHORIZED,
    );
  const parsed = Credentials.safeParse({ url, token });
  if (!parsed.success)
    throw new CliError(parsed.error.issues.map((issue) => issue.message).join(" "), EXIT.UNAUTHORIZED);
  return parsed.data;
}

/* The CLI's settings, in layers. */

export const SETTING_KEYS = ["project", "mode", "approve"] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

const Settings = z
  .object({
    /** The project `arbor run` uses without --project: its name or id. */
    project: z.string().trim().min(1).optional(),
    mode: z.enum(["agent", "chat"]).optional(),
    /** What `arbor run` pre-approves without --approve (see `arbor tools list`). */
    approve: z.array(z.string().trim().min(1)).optional(),
  })
  .strict();
type Settings = z.infer<typeof Settings>;

/**
 * A config file as written: the CLI's keys plus the server's (`model`, `checkpoints`, `limits`,
 * `budgets`, `sandbox`, `network`, `setup`, which the server reads from the default branch and checks
 * itself), kept as they are when the CLI rewrites it.
 */
const FileSettings = Settings.extend({
  model: z.unknown().optional(),
  checkpoints: z.unknown().optional(),
  limits: z.unknown().optional(),
  budgets: z.unknown().optional(),
  sandbox: z.unknown().optional(),
  network: z.unknown().optional(),
  setup: z.unknown().optional(),
}).strict();
type FileSettings = z.infer<typeof FileSettings>;

/**
 * The user's file: the same, but the person's server keys are checked here with the server's schema
 * (server/domain/settings/user-config.ts), so a bad value stops the CLI before anything starts.
 * `sandbox`, `network` and `setup` are kept but unused: they are a session's, not a person's.
 */
const UserFileSettings = FileSettings.extend(UserSettings.shape).strict();

/** The person's server keys, in the order the server applies them. */
export const USER_SERVER_KEYS = ["model", "checkpoints", "limits", "budgets"] as const;
/** Keys the server only reads from the repository's file: kept in the user file, never used. */
export const REPO_ONLY_KEYS = ["sandbox", "network", "setup"] as const;

const DEFAULTS: Required<Settings> = { project: "", mode: "agent", approve: [] };

export type Source = "flag" | "env" | "repo" | "user" | "default";
export interface Resolved<T> {
  value: T;
  source: Source;
}

export const userConfigFile = () => path.join(configDir(), "config.yaml");

/** A path as a person reads it: under the home folder as `~/…`. */
export function shownPath(file: string): string {
  const home = homedir();
  return file.startsWith(`${home}${path.sep}`) ? `~${file.slice(home.length)}` : file;
}

/** The repository's `.arbor/config.yaml`: in the nearest folder up from `from` holding `.arbor/` or `.git`. */
export function repoConfigFile(from = process.cwd()): string | null {
  let dir = path.resolve(from);
  for (;;) {
    if (existsSync(path.join(dir, ".arbor")) || existsSync(path.join(dir, ".git")))
      return path.join(dir, ".arbor", "config.yaml");
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

async function readLayer(
  file: string | null,
  schema: z.ZodType<FileSettings> = FileSettings,
): Promise<FileSettings> {
  if (!file || !existsSync(file)) return {};
  let raw: unknown;
  try {
    raw = YAML.parse(await readFile(file, "utf8")) ?? {};
  } catch (error) {
    throw new CliError(`${file} is not valid YAML: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new CliError(
      `${file}: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(top)"}: ${issue.message}`).join("; ")}`,
    );
  return parsed.data;
}

const readUserFile = () => readLayer(userConfigFile(), UserFileSettings);

/**
 * The user file's server keys, checked: what `arbor run` and `arbor chat` send with each run. Empty
 * when the file names none (or does not exist). A bad file throws, naming the file and the key.
 */
export async function userServerLayer(): Promise<UserSettings> {
  const file = await readUserFile();
  const layer: UserSettings = {};
  for (const key of USER_SERVER_KEYS) if (file[key] !== undefined) Object.assign(layer, { [key]: file[key] });
  return UserSettings.parse(layer);
}

/** The user file's keys the server never reads from it (`sandbox`, `network`, `setup`). */
export async function userRepoOnlyKeys(): Promise<string[]> {
  const file = await readUserFile();
  return REPO_ONLY_KEYS.filter((key) => file[key] !== undefined);
}

/** The repository file's setup command, as written in this checkout (the server reads the default branch's). */
export async function repoSetupCommand(): Promise<string | null> {
  const setup = (await readLayer(repoConfigFile())).setup as { command?: unknown } | undefined;
  return typeof setup?.command === "string" ? setup.command : null;
}

function envLayer(): Settings {
  const layer: Settings = {};
  const { ARBOR_PROJECT, ARBOR_MODE, ARBOR_APPROVE } = env();
  if (ARBOR_PROJECT) layer.project = ARBOR_PROJECT;
  if (ARBOR_MODE) {
    const mode = Settings.shape.mode.safeParse(ARBOR_MODE);
    if (!mode.success) throw new CliError(`ARBOR_MODE must be agent or chat, not "${ARBOR_MODE}".`);
    layer.mode = mode.data;
  }
  if (ARBOR_APPROVE) layer.approve = splitList(ARBOR_APPROVE);
  return layer;
}

export function splitList(text: string): string[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

export type ResolvedSettings = { [Key in SettingKey]: Resolved<Required<Settings>[Key]> };

/** Every setting with the layer it came from (`arbor config list` prints this). */
export async function resolveSettings(flags: Settings = {}): Promise<ResolvedSettings> {
  const layers: [Source, Settings][] = [
    ["flag", flags],
    ["env", envLayer()],
    ["repo", await readLayer(repoConfigFile())],
    ["user", await readUserFile()],
  ];
  const pick = <Key extends SettingKey>(key: Key): Resolved<Required<Settings>[Key]> => {
    for (const [source, layer] of layers) {
      const value = layer[key];
      if (value !== undefined) return { value: value as Required<Settings>[Key], source };
    }
    return { value: DEFAULTS[key], source: "default" };
  };
  return { project: pick("project"), mode: pick("mode"), approve: pick("approve") };
}

/** Writes one setting to the user's file, or with `repo` to the repository's (validated first). */
export async function setSetting(key: string, value: string, where: "user" | "repo"): Promise<string> {
  if (!(SETTING_KEYS as readonly string[]).includes(key))
    throw new CliError(`Unknown setting "${key}". Settings: ${SETTING_KEYS.join(", ")}.`);
  const file = where === "repo" ? repoConfigFile() : userConfigFile();
  if (!file) throw new CliError("Not inside a repository: run `arbor init` in your checkout first.");
  const schema = where === "repo" ? FileSettings : UserFileSettings;
  const current = await readLayer(file, schema);
  const next = { ...current, [key]: key === "approve" ? splitList(value) : value };
  const parsed = schema.safeParse(next);
  if (!parsed.success)
    throw new CliError(`${key}: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  await writeSettings(file, parsed.data);
  return file;
}

/** Writes a config file; `comment` (lines starting with #) goes after the settings. */
export async function writeSettings(file: string, settings: FileSettings, comment = ""): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${YAML.stringify(settings)}${comment ? `${comment}\n` : ""}`);
}
