import { existsSync } from "node:fs";
import type { StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { type UserSettings, userSettingEntries } from "@/server/domain/settings/user-config";
import type { ArborClient } from "./client";
import { editedWriteCall } from "./edit-write";
import { CliError } from "./exit-codes";
import { resolveProject } from "./run";
import {
  type ResolvedSettings,
  repoConfigFile,
  SETTING_KEYS,
  type SettingKey,
  writeSettings,
} from "./settings";
import { sessionText } from "./tree";

type Print = (text: string) => void;

/** `arbor status`: who the token is, what it reaches, the server's model and Docker, and what waits. */
export async function status(client: ArborClient, json: boolean, print: Print): Promise<void> {
  const [me, system, inbox] = await Promise.all([
    client.apiToken.whoami.query(),
    client.system.status.query(),
    client.inbox.pending.query(),
  ]);
  if (json) return print(JSON.stringify({ me, system, inbox }, null, 2));
  const token = me.token;
  print(`Signed in as ${me.user.name} <${me.user.email}>`);
  if (token)
    print(
      `Token "${token.name}": ${token.role} in ${token.team?.name ?? "(a team you left)"}${token.memberRole && token.memberRole !== token.role ? ` (your role there: ${token.memberRole})` : ""}; projects: ${token.projects.map((p) => p.name).join(", ") || "none"}`,
    );
  print(`Model: ${system.model.label}${system.model.offline ? " (offline)" : ""}`);
  print(`Docker: ${system.docker.ok ? "answers" : `not answering (${system.docker.message})`}`);
  if (inbox.items.length === 0) return print("Nothing waits for you.");
  print(`Waiting for a person (${inbox.total}):`);
  for (const item of inbox.items)
    print(
      `  ${item.approvalId} (${item.kind}) in ${item.projectName} / ${item.sessionTitle} [session ${item.sessionId}]${item.command ? `: ${item.command}` : ""}`,
    );
}

/** The session an approval belongs to, from the caller's inbox, when `--session` was not given. */
async function sessionOfApproval(client: ArborClient, approvalId: string): Promise<string> {
  const inbox = await client.inbox.pending.query();
  const item = inbox.items.find((candidate) => candidate.approvalId === approvalId);
  if (!item)
    throw new CliError(
      `No waiting approval ${approvalId} for this token. Check \`arbor status\`, or pass --session.`,
    );
  return item.sessionId;
}

export async function decide(
  client: ArborClient,
  input: {
    approvalId: string;
    session?: string;
    decision: "approved" | "rejected";
    reason?: string;
    command?: string;
    /** A file write's edited content (`--edit-content`). */
    content?: string;
    abort?: boolean;
  },
  print: Print,
): Promise<void> {
  const sessionId = input.session ?? (await sessionOfApproval(client, input.approvalId));
  const call =
    input.content === undefined
      ? undefined
      : editedWriteCall(
          JSON.parse(await client.session.eventLog.query({ sessionId })) as StoredEvent[],
          input.approvalId,
          input.content,
        );
  await client.approval.decide.mutate({
    sessionId,
    approvalId: input.approvalId,
    decision: input.decision,
    reason: input.reason ?? null,
    ...(input.command ? { command: input.command } : {}),
    ...(call ? { call } : {}),
    ...(input.abort ? { abort: true } : {}),
  });
  print(`${input.decision === "approved" ? "Approved" : "Rejected"} ${input.approvalId}.`);
}

export async function historyList(client: ArborClient, project: string, json: boolean, print: Print) {
  const chosen = await resolveProject(client, project);
  const sessions = await client.session.list.query({ projectId: chosen.id });
  if (json) return print(JSON.stringify(sessions, null, 2));
  if (sessions.length === 0) return print(`No sessions in ${chosen.name} yet.`);
  for (const session of sessions) {
    const last = session.latest;
    print(
      `${session.id}  ${new Date(session.createdAt).toISOString()}  ${last ? last.shown.padEnd(11) : "no run     "}  ${session.title}`,
    );
  }
}

/** `arbor history show`: the session's whole log, folded as the replay folds it, or the log as JSON. */
export async function historyShow(client: ArborClient, sessionId: string, json: boolean, print: Print) {
  const log = await client.session.eventLog.query({ sessionId });
  if (json) return print(log);
  const events = JSON.parse(log) as StoredEvent[];
  print(sessionText(foldEvents(events)));
}

export async function toolsList(client: ArborClient, json: boolean, print: Print) {
  const tools = await client.system.tools.query();
  if (json) return print(JSON.stringify(tools, null, 2));
  for (const tool of tools)
    print(
      `${tool.name.padEnd(22)} ${tool.category.padEnd(10)} ${tool.readOnly ? "read-only" : `asks (${tool.risk})`.padEnd(9)}  ${tool.description.split("\n")[0]}`,
    );
}

/** What the config files say beside the CLI's own keys (`arbor config list` prints it too). */
export interface FileServerKeys {
  /** The user file as a person reads it (`~/.config/arbor/config.yaml`). */
  userFile: string;
  /** Its server keys: sent with each run as the run's own person layer. */
  userLayer: UserSettings;
  /** Its keys the server never reads from a user file (sandbox, network, setup). */
  userRepoOnly: string[];
  /** The checkout's `.arbor/config.yaml` setup command (the server reads the default branch's). */
  repoSetupCommand: string | null;
}

export function configList(settings: ResolvedSettings, files: FileServerKeys, json: boolean, print: Print) {
  if (json) return print(JSON.stringify({ ...settings, files }, null, 2));
  for (const key of SETTING_KEYS) {
    const { value, source } = settings[key];
    print(`${key} = ${Array.isArray(value) ? value.join(",") : value}  (${source})`);
  }
  for (const [key, value] of userSettingEntries(files.userLayer))
    print(
      `${key} = ${value}  (${files.userFile}; sent with each run, used only where no looser than the server's: see \`arbor config list --server\`)`,
    );
  for (const key of files.userRepoOnly)
    print(
      `! ${key} in ${files.userFile} is not used: sandbox, network and setup are the project's and its repository's, not a person's`,
    );
  if (files.repoSetupCommand)
    print(
      `setup.command = ${files.repoSetupCommand}  (.arbor/config.yaml in this checkout; runs use the default branch's, once a person approved it)`,
    );
}

/** The server's setup command for `config list --server`: its text, source and approval, in words. */
export function setupLines(setup: {
  command: string | null;
  source: string | null;
  sourceLabel: string | null;
  approved: boolean;
  repoCommand: string | null;
}): string[] {
  const lines: string[] = [];
  if (setup.command)
    lines.push(
      `setup.command = ${setup.command}  (${setup.sourceLabel}; ${setup.approved ? "approved" : "not approved: new sessions skip it until a person approves this exact text on the Network and setup card"})`,
    );
  if (setup.repoCommand && setup.source === "project")
    lines.push(
      `! setup.command = ${setup.repoCommand} in .arbor/config.yaml is not used: the project's own command beats it`,
    );
  return lines;
}

/** `arbor config list --server`: what the project's runs use on the server, each with its source. */
export async function serverConfigList(
  client: ArborClient,
  project: string,
  files: Pick<FileServerKeys, "userFile" | "userLayer">,
  json: boolean,
  print: Print,
) {
  const chosen = await resolveProject(client, project);
  // The user file's server keys go along, so the rows are what this CLI's runs would use.
  const cliConfig = Object.keys(files.userLayer).length > 0 ? files.userLayer : undefined;
  const layers = await client.settings.layers.query({ projectId: chosen.id, cliConfig });
  if (json) return print(JSON.stringify(layers, null, 2));
  if (layers.repoConfig.problem) print(`! ${layers.repoConfig.problem} (skipped)`);
  const source = (name: string) =>
    name === "repo"
      ? ".arbor/config.yaml on the default branch"
      : name === "user"
        ? "you"
        : name === "cli"
          ? files.userFile
          : name;
  // The model's person layer holds the stored values and the file's over them: a field the file names
  // and that comes from the person layer is the file's.
  const fileModel: Record<string, unknown> = {
    modelName: files.userLayer.model?.name,
    timeoutMs: files.userLayer.model?.timeoutMs,
  };
  const modelSource = (row: { field: string; source: string }) =>
    row.source === "user" && fileModel[row.field] !== undefined ? "cli" : row.source;
  for (const row of layers.model) print(`model.${row.field} = ${row.value}  (${source(modelSource(row))})`);
  for (const row of layers.checkpoints)
    print(`checkpoints.${row.field} = ${row.value}  (${source(row.source)})`);
  for (const row of layers.run) print(`${row.key} = ${row.value}  (${source(row.source)})`);
  for (const line of setupLines(layers.setup)) print(line);
  for (const row of layers.ignored)
    print(
      `! ${row.key} = ${row.value} in ${row.layer === "user" ? "your own settings" : row.layer === "cli" ? files.userFile : ".arbor/config.yaml"} is ignored: ${row.reason}`,
    );
}

export function configGet(settings: ResolvedSettings, key: string, print: Print) {
  if (!(SETTING_KEYS as readonly string[]).includes(key))
    throw new CliError(`Unknown setting "${key}". Settings: ${SETTING_KEYS.join(", ")}.`);
  const { value } = settings[key as SettingKey];
  print(Array.isArray(value) ? value.join(",") : value);
}

/** Comments only, so the file stays valid YAML and valid config until a person fills it in. */
export const SETUP_HINT = [
  "# The command that prepares a new session's sandbox (runs once a person approved this exact text):",
  "# setup:",
  "#   command: npm ci",
].join("\n");

/** `arbor init`: the repository's `.arbor/config.yaml`, from the settings in force now. */
export async function init(settings: ResolvedSettings, force: boolean, print: Print) {
  const file = repoConfigFile();
  if (!file) throw new CliError("Run `arbor init` inside your project's checkout (a folder with .git).");
  if (existsSync(file) && !force) throw new CliError(`${file} exists already (use --force to overwrite).`);
  await writeSettings(
    file,
    {
      ...(settings.project.value ? { project: settings.project.value } : {}),
      mode: settings.mode.value,
      approve: settings.approve.value,
    },
    SETUP_HINT,
  );
  print(`Wrote ${file}. Commit it so everyone's \`arbor run\` in this repository starts the same way.`);
}
