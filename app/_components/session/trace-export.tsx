"use client";

import { useMutation } from "@tanstack/react-query";
import { describeError, useTRPCClient } from "../../_trpc/client";
import { downloadFile } from "./capture-menu";

/** Trace ledger (seed 003): the session's Agent Trace records and its intent map, as downloads. */
export function TraceExport({ sessionId }: { sessionId: string }) {
  const client = useTRPCClient();
  // Fetched on click rather than cached: a download wants the ledger as it is now.
  const exportTrace = useMutation({
    mutationFn: async () => {
      const jsonl = await client.trace.sessionTrace.query({ sessionId });
      downloadFile("agent_trace.jsonl", "application/jsonl", jsonl);
    },
  });
  const exportMap = useMutation({
    mutationFn: async () => {
      const markdown = await client.trace.intentMap.query({ sessionId });
      downloadFile("intent_map.md", "text/markdown", markdown);
    },
  });
  const error = exportTrace.error ?? exportMap.error;

  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={exportTrace.isPending}
        onClick={() => exportTrace.mutate()}
        data-testid="export-trace"
      >
        {exportTrace.isPending ? "Exporting…" : "Agent trace (JSONL)"}
      </button>
      <button
        type="button"
        className="secondary"
        disabled={exportMap.isPending}
        onClick={() => exportMap.mutate()}
        data-testid="export-intent-map"
      >
        {exportMap.isPending ? "Exporting…" : "Intent map"}
      </button>
      {error && (
        <span role="alert" className="error small" data-testid="export-trace-error">
          {describeError(error)}
        </span>
      )}
    </>
  );
}
