"use client";

import { useMutation } from "@tanstack/react-query";
import { describeError, useTRPCClient } from "../../_trpc/client";

/** Hands a generated file to the browser's download; the object URL is freed once the click is queued. */
export function downloadFile(name: string, type: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Session capture (seed 000): the session as a JSON file to import elsewhere, and as training data. */
export function CaptureMenu({ sessionId }: { sessionId: string }) {
  const client = useTRPCClient();
  // Fetched on click rather than kept in the query cache: a download wants the log as it is now.
  const exportJson = useMutation({
    mutationFn: async () => {
      const doc = await client.capture.exportSession.query({ sessionId });
      downloadFile(`arbor-session-${sessionId}.json`, "application/json", JSON.stringify(doc, null, 2));
    },
  });
  const exportTraining = useMutation({
    mutationFn: async () => {
      const jsonl = await client.capture.trainingData.query({ sessionId });
      downloadFile(`arbor-training-${sessionId}.jsonl`, "application/jsonl", jsonl);
    },
  });
  const error = exportJson.error ?? exportTraining.error;

  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={exportJson.isPending}
        onClick={() => exportJson.mutate()}
        data-testid="export-session"
      >
        {exportJson.isPending ? "Exporting…" : "Export session (JSON)"}
      </button>
      <button
        type="button"
        className="secondary"
        disabled={exportTraining.isPending}
        onClick={() => exportTraining.mutate()}
        data-testid="export-training"
      >
        {exportTraining.isPending ? "Exporting…" : "Training data (JSONL)"}
      </button>
      {error && (
        <span role="alert" className="error small" data-testid="export-error">
          {describeError(error)}
        </span>
      )}
    </>
  );
}
