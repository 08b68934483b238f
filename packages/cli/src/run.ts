import { createInterface, type Interface } from "node:readline/promises";
import type { ApprovalView, SessionView } from "@/server/domain/session/view";
import type { UserSettings } from "@/server/domain/settings/user-config";
import { categoryOf } from "@/server/domain/tools/catalogue";
import { type ArborClient, asCliError } from "./client";
import { CliError, EXIT, type ExitCode, exitCodeOf } from "./exit-codes";
import { followSession, treePrinter } from "./follow";
import { describeApproval, pendingApprovals } from "./tree";

export interface RunOptions {
  task: string;
  project: string;
  mode: "agent" | "chat";
  /** A model name for this run only (the run layer of the model settings). */
  model?: string;
  /** The user file's server keys (model, checkpoints, limits, budgets): the run's own person layer. */
  cliConfig?: UserSettings;
  /** Tool names (fs.write, git.add, shell.exec), categories (write, git-write) or approval kinds (command, decomposition). */
  approve: string[];
  wait: boolean;
  json: boolean;
  /** Ask in the terminal; false with --ci or when stdin/stdout is not a terminal. */
  interactive: boolean;
  serverUrl: string;
}

interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** The server's pre-approvable categories `--approve` can name, by tool name or category name. */
function runCategories(approve: string[]): ("write" | "git-write")[] {
  const categories = new Set<"write" | "git-write">();
  for (const entry of approve) {
    const category = entry === "write" || entry === "git-write" ? entry : categoryOf(entry);
    if (category === "write" || category === "git-write") categories.add(category);
  }
  return [...categories];
}

/** Whether the person pre-approved this card on the command line. */
export function preApproved(approval: ApprovalView, approve: string[]): boolean {
  const wanted = new Set(approve);
  if (approval.kind === "command") return wanted.has("command") || wanted.has("shell.exec");
  if (approval.kind === "decomposition") return wanted.has("decomposition");
  if (approval.kind === "tool" && approval.call) {
    const category = categoryOf(approval.call.tool);
    return wanted.has(approval.call.tool) || (category !== null && wanted.has(category));
  }
  return false;
}

/** Finds the project by id or name among those the token reaches. */
export async function resolveProject(
  client: ArborClient,
  wanted: string,
): Promise<{ id: string; name: string }> {
  const me = await client.apiToken.whoami.query();
  const projects = me.token?.projects ?? [];
  if (!wanted) {
    if (projects.length === 1 && projects[0]) return projects[0];
    throw new CliError(
      `Say which project with --project (or \`arbor config set project <name>\`). This token reaches: ${projects.map((p) => p.name).join(", ") || "no project"}.`,
    );
  }
  const found = projects.filter((project) => project.id === wanted || project.name === wanted);
  if (found.length === 1 && found[0]) return found[0];
  if (found.length > 1)
    throw new CliError(
      `Several projects are called "${wanted}": use its id (${found.map((p) => p.id).join(", ")}).`,
    );
  throw new CliError(
    `No project "${wanted}" for this token. It reaches: ${projects.map((p) => p.name).join(", ") || "no project"}.`,
  );
}

/**
 * `arbor run`: opens a session with the task, pre-approves what the flags say, then follows the run,
 * printing its tree as it grows and answering approvals: pre-approved ones itself, others in the
 * terminal (y / n / abort / edit) or, without one, by stopping the run (EXIT.NEEDS_PERSON).
 */
export async function runTask(client: ArborClient, options: RunOptions, io: Output): Promise<ExitCode> {
  const project = await resolveProject(client, options.project);
  const { sessionId, runId } = await client.session.create.mutate({
    projectId: project.id,
    task: options.task,
    mode: options.mode,
    ...(options.model ? { model: { modelName: options.model } } : {}),
    ...(hasKeys(options.cliConfig) ? { cliConfig: options.cliConfig } : {}),
  });
  const link = new URL(`/projects/${project.id}/sessions/${sessionId}`, options.serverUrl).toString();
  const categories = runCategories(options.approve);
  if (categories.length > 0) await client.run.preApprove.mutate({ sessionId, runId, categories });
  if (options.json)
    io.out(JSON.stringify({ type: "started", sessionId, runId, projectId: project.id, url: link }));
  else io.out(`Session ${sessionId} in ${project.name}: ${link}`);
  if (!options.wait) return EXIT.VERIFIED;

  const print = treePrinter(io.out);
  const answered = new Set<string>();
  let queue: Promise<void> = Promise.resolve();
  let needsPerson: ApprovalView | null = null;
  let failure: CliError | null = null;
  const halt = new AbortController();
  /** Ends a question still open in the terminal when the run ends without it (answered in the browser). */
  const asking = new AbortController();
  const rl: Interface | null = options.interactive
    ? createInterface({ input: process.stdin, output: process.stderr })
    : null;

  const answer = async (approval: ApprovalView): Promise<void> => {
    if (preApproved(approval, options.approve)) {
      io.err(`Approved ${approval.id} (${approval.kind}): pre-approved by --approve.`);
      await client.approval.decide.mutate({ sessionId, approvalId: approval.id, decision: "approved" });
      return;
    }
    if (!rl) {
      needsPerson = approval;
      halt.abort();
      return;
    }
    await askInTerminal(client, rl, sessionId, approval, io, asking.signal);
  };

  let view: SessionView;
  try {
    view = await followSession(client, sessionId, {
      onEvent: (event, folded) => {
        const run = folded.runs[runId];
        if (!run) return;
        if (options.json) io.out(JSON.stringify({ type: "event", event }));
        else print(folded, run);
        if (run.status !== "RUNNING") return;
        for (const approval of pendingApprovals(folded, runId)) {
          if (answered.has(approval.id)) continue;
          answered.add(approval.id);
          queue = queue
            .then(() => (needsPerson || failure ? undefined : answer(approval)))
            .catch((error: unknown) => {
              if ((error as Error).name === "AbortError") return;
              failure = asCliError(error);
              halt.abort();
            });
        }
      },
      done: (folded) => {
        const status = folded.runs[runId]?.status;
        return status !== undefined && status !== "RUNNING";
      },
      signal: halt.signal,
    });
  } finally {
    asking.abort();
    // The last approval's answer may still be on its way when the stream ends.
    await queue;
    rl?.close();
  }
  if (failure) throw failure;
  const stopped = needsPerson as ApprovalView | null;
  if (stopped) {
    io.err(
      [
        describeApproval(stopped),
        `Stopping the run: nobody is here to answer (--ci, or no terminal). Pre-approve with --approve=${suggestion(stopped)} or answer it in the browser: ${link}`,
      ].join("\n"),
    );
    await client.run.stop.mutate({ sessionId, runId });
    if (options.json)
      io.out(
        JSON.stringify({
          type: "result",
          sessionId,
          runId,
          status: "NEEDS_PERSON",
          approvalId: stopped.id,
          exitCode: EXIT.NEEDS_PERSON,
        }),
      );
    return EXIT.NEEDS_PERSON;
  }
  const status = view.runs[runId]?.status ?? "RUNNING";
  const code = exitCodeOf(status);
  if (options.json) io.out(JSON.stringify({ type: "result", sessionId, runId, status, exitCode: code }));
  return code;
}

/** Whether a layer names anything (an empty one is not sent). */
export function hasKeys(layer: UserSettings | undefined): layer is UserSettings {
  return layer !== undefined && Object.keys(layer).length > 0;
}

function suggestion(approval: ApprovalView): string {
  if (approval.kind === "tool" && approval.call) return approval.call.tool;
  return approval.kind;
}

/** One card in the terminal: y approves, n rejects (with a reason), a rejects and ends the run, e edits a command. */
async function askInTerminal(
  client: ArborClient,
  rl: Interface,
  sessionId: string,
  approval: ApprovalView,
  io: Output,
  signal: AbortSignal,
): Promise<void> {
  io.err(describeApproval(approval));
  const ask = async (prompt: string) => (await rl.question(prompt, { signal })).trim();
  for (;;) {
    const reply = (await ask("Approve? [y]es / [n]o / [a]bort / [e]dit: ")).toLowerCase();
    const decide = (
      input: Omit<Parameters<ArborClient["approval"]["decide"]["mutate"]>[0], "sessionId" | "approvalId">,
    ) => client.approval.decide.mutate({ sessionId, approvalId: approval.id, ...input });
    try {
      if (reply === "y" || reply === "yes") return void (await decide({ decision: "approved" }));
      if (reply === "n" || reply === "no") {
        const reason = await ask("Why (optional)? ");
        return void (await decide({ decision: "rejected", reason: reason || null }));
      }
      if (reply === "a" || reply === "abort")
        return void (await decide({ decision: "rejected", abort: true }));
      if (reply === "e" || reply === "edit") {
        if (approval.kind !== "command") {
          io.err("Only a command can be edited here; answer y, n or a (or edit it in the browser).");
          continue;
        }
        const command = await ask(`Command [${approval.command ?? ""}]: `);
        return void (await decide({ decision: "approved", command: command || approval.command || "" }));
      }
      io.err("Answer y, n, a or e.");
    } catch (error) {
      if ((error as Error).name === "AbortError") throw error;
      io.err(`The server refused that answer: ${asCliError(error).message}`);
    }
  }
}
