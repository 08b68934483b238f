"use client";

import { type FormEvent, useState } from "react";

export function TaskForm(props: {
  pending: boolean;
  error: string | null;
  disabled?: string | null;
  /** "Start" for Agent mode, "Ask" for Chat. */
  submitLabel?: string;
  placeholder?: string;
  onSubmit: (task: string) => void;
}) {
  const [task, setTask] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    if (task.trim()) props.onSubmit(task.trim());
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
