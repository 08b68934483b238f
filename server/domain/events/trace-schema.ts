import { z } from "zod";
import { EvidenceKind } from "@/server/domain/vocabulary/session";

/**
 * The Agent Trace record (spec v0.1, https://agent-trace.dev/schemas/v1/trace-record.json) as zod
 * schemas, plus the body of the `trace-recorded` event. No Node imports: the event union (shared with
 * the browser) can include `TraceRecordedBody` directly.
 */

/**
 * The spec's JSON Schema requires `^[0-9]+\.[0-9]+$` ("0.1"), while its README writes "0.1.0" (and
 * shows a three-part pattern). We emit what the normative JSON Schema accepts.
 */
export const AGENT_TRACE_VERSION = "0.1";
export const ARBOR_TOOL_VERSION = "0.1.0";
export const ARBOR_METADATA_KEY = "dev.arbor";

const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
/** RFC 3339 in UTC with `Z` (what `Date#toISOString` produces): the schema's own pattern. */
const TIMESTAMP =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z))$/;
const LINE = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const TraceContributor = z.strictObject({
  type: z.enum(["human", "ai", "mixed", "unknown"]),
  model_id: z.string().max(250).optional(),
});
export type TraceContributor = z.infer<typeof TraceContributor>;

export const TraceRange = z.strictObject({
  start_line: LINE,
  end_line: LINE,
  content_hash: z.string().optional(),
  contributor: TraceContributor.optional(),
});
export type TraceRange = z.infer<typeof TraceRange>;

export const TraceConversation = z.strictObject({
  url: z.url().optional(),
  contributor: TraceContributor.optional(),
  ranges: z.array(TraceRange),
  related: z.array(z.strictObject({ type: z.string(), url: z.url() })).optional(),
});

export const TraceFile = z.strictObject({
  path: z.string(),
  conversations: z.array(TraceConversation),
});
export type TraceFile = z.infer<typeof TraceFile>;

/** One Agent Trace record; mirrors every constraint of the spec's JSON Schema (no extra keys anywhere). */
export const AgentTraceRecord = z.strictObject({
  version: z.string().regex(/^[0-9]+\.[0-9]+$/),
  id: z.string().regex(UUID),
  timestamp: z.string().regex(TIMESTAMP),
  vcs: z.strictObject({ type: z.enum(["git", "jj", "hg", "svn"]), revision: z.string() }).optional(),
  tool: z.strictObject({ name: z.string(), version: z.string() }).optional(),
  files: z.array(TraceFile),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type AgentTraceRecord = z.infer<typeof AgentTraceRecord>;

/** What Arbor keeps under `metadata["dev.arbor"]`. */
export const ArborTraceMetadata = z.object({
  session_id: z.string(),
  run_id: z.string().nullable(),
  intention_id: z.string().nullable(),
  cycle_id: z.string().nullable(),
  approver: z.string().nullable(),
  check_result: z.string().nullable(),
  /** How the changes were isolated: "snapshot" (this cycle only) or "head" (everything since HEAD). */
  baseline: z.enum(["snapshot", "head", "diff"]),
  deleted_files: z.array(z.string()),
  binary_files: z.array(z.string()),
  /** Files whose diff was too large to read; they are changed but carry no ranges. */
  truncated_files: z.array(z.string()),
  renamed_files: z.array(z.object({ from: z.string(), to: z.string() })),
  /** For human contributions: who wrote it. */
  author: z.string().nullable(),
  /** Files that gained lines beyond the per-record cap: counted, not listed. */
  omitted_files: z.number().int().nonnegative(),
  /**
   * Added at export (issue #15): the kind of evidence the record's intention was verified on, null
   * when it is not (or not yet) verified; absent in records written before. `accepted_by` names the
   * person for "accepted-by-person".
   */
  evidence: EvidenceKind.nullable().optional(),
  accepted_by: z.string().nullable().optional(),
});
export type ArborTraceMetadata = z.infer<typeof ArborTraceMetadata>;

/**
 * The body of the `trace-recorded` event the engine appends after a cycle that changed files. Kept
 * here (not in the event union yet) so the union can include it with one line.
 */
export const TraceRecordedBody = z.object({
  type: z.literal("trace-recorded"),
  /** null (with intentionId) for a person's save in the editor; `cycleId` is then its `editId`. */
  runId: z.string().nullable(),
  intentionId: z.string().nullable(),
  cycleId: z.string(),
  records: z.array(AgentTraceRecord),
});
export type TraceRecordedBody = z.infer<typeof TraceRecordedBody>;

/** Arbor's metadata of a record, or null for a record another tool wrote. */
export function arborMetadataOf(record: AgentTraceRecord): ArborTraceMetadata | null {
  const parsed = ArborTraceMetadata.safeParse(record.metadata?.[ARBOR_METADATA_KEY]);
  return parsed.success ? parsed.data : null;
}

/**
 * This family's event types (what a cycle wrote, as Agent Trace records).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const TRACE_EVENTS = [TraceRecordedBody] as const;
