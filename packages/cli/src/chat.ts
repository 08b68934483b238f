import { createInterface } from "node:readline/promises";
import type { UserSettings } from "@/server/domain/settings/user-config";
import type { ArborClient } from "./client";
import { EXIT, type ExitCode } from "./exit-codes";
import { followSession } from "./follow";
import { hasKeys, resolveProject } from "./run";

/**
 * `arbor chat`: a REPL in Chat mode. The first line opens a session, each next line is a new run in
 * it, and each answer is printed when it is posted. Chat runs are read-only on the server (they never
 * change files), so nothing here asks for approvals. `/exit` or end of input leaves.
 */
export async function chat(
  client: ArborClient,
  options: { project: string; serverUrl: string; model?: string; cliConfig?: UserSettings },
  io: { out: (text: string) => void; err: (text: string) => void },
): Promise<ExitCode> {
  const project = await resolveProject(client, options.project);
  const model = options.model ? { modelName: options.model } : undefined;
  // The user file's server keys go with every run of the chat (each is its own run).
  const cliConfig = hasKeys(options.cliConfig) ? options.cliConfig : undefined;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  let sessionId: string | null = null;
  let last: ExitCode = EXIT.VERIFIED;
  io.err(`Chat about ${project.name} (answers only, nothing is changed). /exit to leave.`);
  // Lines are read through the iterator, which queues them: piped input (a script) loses none while
  // an answer is being written.
  const prompt = () => {
    if (process.stdin.isTTY) process.stderr.write("you> ");
  };
  prompt();
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === "/exit") break;
      if (line === "") {
        prompt();
        continue;
      }
      let runId: string;
      if (sessionId === null) {
        const created = await client.session.create.mutate({
          projectId: project.id,
          task: line,
          mode: "chat",
          model,
          cliConfig,
        });
        sessionId = created.sessionId;
        runId = created.runId;
        io.err(`Session: ${new URL(`/projects/${project.id}/sessions/${sessionId}`, options.serverUrl)}`);
      } else {
        ({ runId } = await client.run.start.mutate({
          sessionId,
          task: line,
          mode: "chat",
          model,
          cliConfig,
        }));
      }
      const printed = new Set<string>();
      const view = await followSession(client, sessionId, {
        onEvent: (_event, folded) => {
          for (const message of folded.messages) {
            if (message.runId !== runId || message.role === "user" || printed.has(message.id)) continue;
            printed.add(message.id);
            io.out(message.text);
          }
        },
        done: (folded) => {
          const status = folded.runs[runId]?.status;
          return status !== undefined && status !== "RUNNING";
        },
      });
      const run = view.runs[runId];
      if (run && run.status !== "ANSWERED") io.err(`(${run.status}${run.reason ? `: ${run.reason}` : ""})`);
      last = run?.status === "ANSWERED" ? EXIT.VERIFIED : EXIT.ERROR;
      prompt();
    }
  } finally {
    rl.close();
  }
  return last;
}
