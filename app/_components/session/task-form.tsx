"use client";

import { useSearchParams } from "next/navigation";
import { type FormEvent, useState } from "react";
import { OfflineHelp } from "./offline-help";

export function TaskForm(props: {
  pending: boolean;
  error: string | null;
  disabled?: string | null;
  /** "Start" for Agent mode, "Ask" for Chat. */
  submitLabel?: string;
  placeholder?: string;
  /** The built-in offline model answers: show what it understands, as examples to click. */
  offline?: boolean;
  /** Resolves once the task was taken (the box then clears); rejects when it was not (the text stays). */
  onSubmit: (task: string) => Promise<unknown>;
}) {
  // A suggested task arrives in the address (`?task=`, the sample project's first task).
  const suggested = useSearchParams().get("task") ?? "";
  const [task, setTask] = useState(suggested);
  function submit(event: FormEvent) {
    event.preventDefault();
    const text = task.trim();
    if (!text) return;
    props.onSubmit(text).then(
      () => setTask((current) => (current.trim() === text ? "" : current)),
      // The error shows under the box (props.error); the text stays so nothing is lost.
      () => undefined,
    );
  }
  return (
    <form onSubmit={submit} className="stack" aria-label="Task">
      <textarea
        value={task}
        onChange={(event) => setTask(event.target.value)}
        placeholder={props.placeholder ?? "e.g. run `ls -la` and then run `git log --oneline`"}
        rows={3}
        data-testid="task-input"
        aria-label="Task for the agent"
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) submit(event);
        }}
      />
      {props.offline && <OfflineHelp onPick={setTask} />}
      {props.error && (
        <p role="alert" className="error" data-testid="task-error">
          {props.error}
        </p>
      )}
      {props.disabled && <p className="muted small">{props.disabled}</p>}
      <button
        type="submit"
        className="primary"
        disabled={props.pending || !task.trim() || Boolean(props.disabled)}
        data-testid="task-submit"
      >
        {props.pending ? "Starting…" : (props.submitLabel ?? "Start")}
      </button>
    </form>
  );
}
