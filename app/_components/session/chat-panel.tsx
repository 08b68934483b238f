"use client";

import { useMutation } from "@tanstack/react-query";
import type { MessageView, SessionView } from "@/server/domain/session/view";
import { describeError, useTRPC } from "../../_trpc/client";
import { AnswerTools } from "./answer-tools";
import { RunCliConfig } from "./run-cli-config";
import { SwitchBar } from "./switch-bar";
import { TaskForm } from "./task-form";
import { useAnswerStream } from "./use-answer-stream";
import { useModeSwitches } from "./use-mode-switches";
import { useModelPicker } from "./use-model-picker";

export function ChatPanel({
  sessionId,
  projectId,
  view,
  running,
}: {
  sessionId: string;
  projectId: string;
  view: SessionView;
  running: boolean;
}) {
  const trpc = useTRPC();
  const start = useMutation(trpc.run.start.mutationOptions());
  const { switches, loaded, change } = useModeSwitches(projectId);
  const picker = useModelPicker(projectId, switches.model);
  const answering = Object.values(view.runs).some(
    (run) => run.status === "RUNNING" && (run.mode === "chat" || run.route?.route === "answer"),
  );
  const partials = useAnswerStream(sessionId, answering);
  const answered = new Set(
    view.messages.filter((message) => message.role !== "user").map((message) => message.runId),
  );
  const streaming = Object.entries(partials).filter(([runId]) => !answered.has(runId));
  return (
    <section className="card chat" aria-label="Chat">
      <h2>Chat</h2>
      <ol className="messages" data-testid="messages">
        {view.messages.map((message) => (
          <ChatMessage key={message.id} message={message} view={view} />
        ))}
        {streaming.map(([runId, text]) => (
          <li key={`partial-${runId}`} className="message agent streaming" data-testid="answer-streaming">
            <span className="role">agent · writing…</span>
            <div className="text">{text}</div>
            <AnswerTools calls={view.runs[runId]?.answerTools ?? []} />
          </li>
        ))}
      </ol>
      <SwitchBar switches={switches} onChange={change} models={picker.models} />
      <TaskForm
        pending={start.isPending || !loaded}
        error={start.error ? describeError(start.error) : null}
        disabled={
          running ? "The agent is working on a message; a new one can start when it ends." : picker.problem
        }
        submitLabel={switches.mode === "chat" ? "Ask" : "Start"}
        placeholder={
          switches.mode === "chat"
            ? "e.g. what does `README.md` say about setup?"
            : "e.g. run `ls -la` and then run `git log --oneline`"
        }
        offline={picker.offline && switches.mode === "agent"}
        onSubmit={(task) =>
          start.mutateAsync({
            sessionId,
            task,
            mode: switches.mode,
            reasoning: switches.reasoning,
            model: picker.model,
          })
        }
      />
    </section>
  );
}

/** A message, with the switches it was sent with (user) or the tool calls it was built from (agent). */
function ChatMessage({ message, view }: { message: MessageView; view: SessionView }) {
  const run = message.runId ? view.runs[message.runId] : undefined;
  return (
    <li className={`message ${message.role}`} data-testid={`message-${message.role}`}>
      <span className="role">
        {message.role}
        {message.role === "user" && run && (
          <span className="muted" data-testid="message-switches">
            {" "}
            · {run.mode === "chat" ? "Chat" : "Agent"} · reasoning {run.reasoning}
            {run.route?.route === "answer" && run.mode === "agent" ? " · answered read-only" : ""}
            <span data-testid="message-model">
              {" "}
              · model {run.model.offline ? "built-in offline" : run.model.id}
            </span>
          </span>
        )}
      </span>
      <div className="text">{message.text}</div>
      {message.role === "user" && run && <RunCliConfig run={run} />}
      {message.role === "agent" && run && <AnswerTools calls={run.answerTools} />}
    </li>
  );
}
