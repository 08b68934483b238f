"use client";

import { useMutation } from "@tanstack/react-query";
import type { SessionView } from "@/server/events/fold";
import { describeError, useTRPC } from "../../_trpc/client";
import { TaskForm } from "./task-form";

export function ChatPanel({
  sessionId,
  view,
  running,
}: {
  sessionId: string;
  view: SessionView;
  running: boolean;
}) {
  const trpc = useTRPC();
  const start = useMutation(trpc.run.start.mutationOptions());
  return (
    <section className="card chat" aria-label="Chat">
      <h2>Chat</h2>
      <ol className="messages" data-testid="messages">
        {view.messages.map((message) => (
          <li key={message.id} className={`message ${message.role}`} data-testid={`message-${message.role}`}>
            <span className="role">{message.role}</span>
            <div className="text">{message.text}</div>
          </li>
        ))}
      </ol>
      <TaskForm
        pending={start.isPending}
        error={start.error ? describeError(start.error) : null}
        disabled={running ? "The agent is working on a task; a new one can start when it ends." : null}
        onSubmit={(task) => start.mutate({ sessionId, task, mode: "agent" })}
      />
    </section>
  );
}
