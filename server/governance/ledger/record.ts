import { createHash, randomUUID } from "node:crypto";
import {
  AGENT_TRACE_VERSION,
  type AgentTraceRecord,
  ARBOR_METADATA_KEY,
  ARBOR_TOOL_VERSION,
  type ArborTraceMetadata,
  type TraceContributor,
  type TraceFile,
} from "@/server/domain/events/trace-schema";
import { type FileDiff, parseUnifiedDiff } from "./diff-ranges";

export * from "@/server/domain/events/trace-schema";

/**
 * Agent Trace records (spec v0.1, https://agent-trace.dev/schemas/v1/trace-record.json) for the trace
 * ledger: which lines of which files a cycle wrote, hashed so they can be followed when they move.
 * Pure. Arbor's own fields live under `metadata["dev.arbor"]` (reverse-domain, as the spec advises).
 */

/**
 * `sha256:<hex>` of a range's lines joined with "\n" (no trailing newline; a CRLF file's lines are
 * hashed without their "\r"): stable wherever the lines move.
 */
export function contentHash(lines: readonly string[]): string {
  return `sha256:${createHash("sha256").update(lines.join("\n"), "utf8").digest("hex")}`;
}

/** Files with ranges kept in one record; the rest are only counted (`omitted_files`), to bound the event. */
export const MAX_FILES_PER_RECORD = 1000;

export type LedgerContributor = { type: "ai"; modelId: string } | { type: "human"; author: string | null };

export interface LedgerInput {
  /** `git diff --unified=0` output, or files already parsed by `parseUnifiedDiff`. */
  diff: string | readonly FileDiff[];
  /** The commit the ranges are relative to (`git rev-parse HEAD`); null when there is none yet. */
  revision: string | null;
  sessionId: string;
  runId: string | null;
  intentionId: string | null;
  cycleId?: string | null;
  /** The AI model that wrote the change (ignored when `contributor` is given). */
  modelId?: string;
  /** Who wrote it; defaults to `{ type: "ai", modelId }`. Editor writes pass `{ type: "human", author }`. */
  contributor?: LedgerContributor;
  /** Who approved the action, when a person did. */
  approver: string | null;
  /** The cycle's judgment: SUCCESS, PARTIAL, FAILURE… */
  checkResult: string | null;
  /** ISO-8601 UTC (`new Date().toISOString()`). */
  timestamp: string;
  baseline?: ArborTraceMetadata["baseline"];
  truncatedFiles?: readonly string[];
  toolVersion?: string;
  /** At most this many files get ranges (default `MAX_FILES_PER_RECORD`). */
  maxFiles?: number;
  /** Record id generator (tests pass a fixed one). */
  newId?: () => string;
}

function contributorOf(input: LedgerInput): TraceContributor {
  const who = input.contributor ?? { type: "ai", modelId: input.modelId ?? "unknown" };
  if (who.type === "human") return { type: "human" };
  return { type: "ai", model_id: who.modelId.slice(0, 250) };
}

/**
 * The Agent Trace records of one change set: one record when any file changed (added, modified,
 * renamed, deleted or binary), none otherwise. Only files with added lines appear in `files`; the
 * others are listed in the metadata so nothing the cycle did is silent.
 */
export function ledgerRecords(input: LedgerInput): AgentTraceRecord[] {
  const parsed = typeof input.diff === "string" ? parseUnifiedDiff(input.diff) : input.diff;
  const truncated = [...(input.truncatedFiles ?? [])];
  if (parsed.length === 0 && truncated.length === 0) return [];
  const contributor = contributorOf(input);
  const written = parsed.filter((file) => file.ranges.length > 0);
  const files: TraceFile[] = written.slice(0, input.maxFiles ?? MAX_FILES_PER_RECORD).map((file) => ({
    path: file.path,
    conversations: [
      {
        contributor,
        ranges: file.ranges.map((range) => ({
          start_line: range.startLine,
          end_line: range.endLine,
          content_hash: contentHash(range.lines),
        })),
      },
    ],
  }));
  const metadata: ArborTraceMetadata = {
    session_id: input.sessionId,
    run_id: input.runId,
    intention_id: input.intentionId,
    cycle_id: input.cycleId ?? null,
    approver: input.approver,
    check_result: input.checkResult,
    baseline: input.baseline ?? "diff",
    deleted_files: parsed.filter((file) => file.change === "deleted").map((file) => file.path),
    binary_files: parsed.filter((file) => file.binary).map((file) => file.path),
    truncated_files: truncated,
    renamed_files: parsed
      .filter((file) => file.change === "renamed" && file.oldPath !== null)
      .map((file) => ({ from: file.oldPath as string, to: file.path })),
    author: input.contributor?.type === "human" ? input.contributor.author : null,
    omitted_files: written.length - files.length,
  };
  return [
    {
      version: AGENT_TRACE_VERSION,
      id: (input.newId ?? randomUUID)(),
      timestamp: input.timestamp,
      ...(input.revision ? { vcs: { type: "git" as const, revision: input.revision } } : {}),
      tool: { name: "arbor", version: input.toolVersion ?? ARBOR_TOOL_VERSION },
      files,
      metadata: { [ARBOR_METADATA_KEY]: metadata },
    },
  ];
}
