"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ChangeEvent, useState } from "react";
import { describeError, useTRPC } from "../_trpc/client";

/** Mirrors the server's limit so an oversized file is refused before it is read and uploaded. */
const MAX_IMPORT_BYTES = 20_000_000;

const MEMORY_LABELS = {
  "test-command": "tests with",
  command: "worked",
  decision: "approved plan",
} as const;

/** Picks an exported session file and opens it as a new session of this project. */
export function ImportSession({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [localError, setLocalError] = useState<string | null>(null);
  const importSession = useMutation(
    trpc.capture.importSession.mutationOptions({
      onSuccess: ({ sessionId }) => router.push(`/projects/${projectId}/sessions/${sessionId}`),
    }),
  );

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared so choosing the same file again (after fixing it) fires another change.
    input.value = "";
    if (!file) return;
    setLocalError(null);
    importSession.reset();
    if (file.size > MAX_IMPORT_BYTES) {
      setLocalError("The file is larger than 20 MB.");
      return;
    }
    importSession.mutate({ projectId, file: await file.text() });
  }

  const error = localError ?? (importSession.error ? describeError(importSession.error) : null);
  return (
    <div className="stack">
      <label className="stack">
        <span className="small">Import a session exported from Arbor (JSON); nothing in it runs again.</span>
        <input
          type="file"
          accept=".json,application/json"
          onChange={choose}
          disabled={importSession.isPending}
          data-testid="import-session"
        />
      </label>
      {importSession.isPending && <p className="muted small">Importing…</p>}
      {error && (
        <p role="alert" className="error" data-testid="import-error" style={{ whiteSpace: "pre-line" }}>
          {error}
        </p>
      )}
    </div>
  );
}

/** What verified runs in this project learned, as discovery will read it. */
export function ProjectMemory({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const memory = useQuery(trpc.capture.projectMemory.queryOptions({ projectId }));

  return (
    <div data-testid="project-memory">
      {memory.isPending && <p className="muted">Loading project memory…</p>}
      {memory.error && (
        <p role="alert" className="error">
          {describeError(memory.error)}
        </p>
      )}
      {memory.data?.length === 0 && (
        <p className="muted" data-testid="project-memory-empty">
          Nothing remembered yet: commands and approved plans of verified runs appear here.
        </p>
      )}
      <ul className="list">
        {memory.data?.map((entry) => (
          <li
            key={`${entry.kind}:${entry.summary}:${entry.runId}`}
            data-testid="memory"
            data-kind={entry.kind}
          >
            <div>
              <span className="muted small">{MEMORY_LABELS[entry.kind]}</span>{" "}
              {entry.kind === "decision" ? <span>{entry.summary}</span> : <code>{entry.summary}</code>}
              <div className="muted small" style={{ whiteSpace: "pre-line" }}>
                {entry.kind === "decision" ? entry.detail : `for: ${entry.detail}`}
              </div>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
