import { z } from "zod";
import { Action, StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { issuesOf } from "@/server/domain/text/zod-problems";
import { IntentionStatus, Judgment, RunStatus } from "@/server/domain/vocabulary/session";
import { checkEventLog, type Problem } from "./check-log";

/**
 * A session written to one JSON file (seed 000's "Session Capture"): the whole event log, which is
 * all an import needs, plus the folded tree so a person or a training script can read the outcome
 * without replaying the log. Versioned so a future format can refuse or upgrade old files clearly.
 */

export const SESSION_EXPORT_FORMAT = "arbor-session";
export const SESSION_EXPORT_VERSION = 1;

export interface CycleSummary {
  index: number;
  thought: string;
  action: Action;
  exitCode: number | null;
  output: string | null;
  error: string | null;
  judgment: Judgment | null;
  reflection: string | null;
}

export interface IntentionSummary {
  id: string;
  what: string;
  acceptance: string;
  depth: number;
  status: IntentionStatus;
  reason: string | null;
  cycles: CycleSummary[];
  children: IntentionSummary[];
}

export const CycleSummary = z.object({
  index: z.number().int().nonnegative(),
  thought: z.string(),
  action: Action,
  exitCode: z.number().int().nullable(),
  output: z.string().nullable(),
  error: z.string().nullable(),
  judgment: Judgment.nullable(),
  reflection: z.string().nullable(),
});

// Annotated because a recursive schema's type cannot be inferred from itself.
export const IntentionSummary: z.ZodType<IntentionSummary, unknown> = z.object({
  id: z.string(),
  what: z.string(),
  acceptance: z.string(),
  depth: z.number().int().nonnegative(),
  status: IntentionStatus,
  reason: z.string().nullable(),
  cycles: z.array(CycleSummary),
  children: z.array(z.lazy(() => IntentionSummary)),
});

export const RunSummary = z.object({
  id: z.string(),
  task: z.string(),
  status: RunStatus,
  reason: z.string().nullable(),
  root: IntentionSummary.nullable(),
});
export type RunSummary = z.infer<typeof RunSummary>;

export const SessionExport = z.object({
  format: z.literal(SESSION_EXPORT_FORMAT, {
    error: `not an Arbor session export (expected format "${SESSION_EXPORT_FORMAT}")`,
  }),
  version: z.literal(SESSION_EXPORT_VERSION, {
    error: `unsupported export version (this Arbor reads version ${SESSION_EXPORT_VERSION})`,
  }),
  exportedAt: z.string(),
  session: z.object({
    id: z.string(),
    title: z.string(),
    branch: z.string(),
    projectName: z.string(),
  }),
  events: z.array(StoredEvent),
  tree: z.object({ runs: z.array(RunSummary) }),
});
export type SessionExport = z.infer<typeof SessionExport>;

export interface ExportMeta {
  session: SessionExport["session"];
  /** Passed in rather than read from a clock, so the export stays a pure function. */
  exportedAt: string;
}

function summariseIntention(view: SessionView, intention: IntentionView): IntentionSummary {
  return {
    id: intention.id,
    what: intention.what,
    acceptance: intention.acceptance,
    depth: intention.depth,
    status: intention.status,
    reason: intention.reason,
    cycles: intention.cycles.map((cycle) => ({
      index: cycle.index,
      thought: cycle.thought,
      action: cycle.action,
      exitCode: cycle.exitCode,
      output: cycle.output,
      error: cycle.error,
      judgment: cycle.judgment,
      reflection: cycle.reflection,
    })),
    children: intention.childIds.flatMap((id) => {
      const child = view.intentions[id];
      return child ? [summariseIntention(view, child)] : [];
    }),
  };
}

/** The runs of a folded session, oldest first, each with its intention tree. */
export function summariseTree(view: SessionView): SessionExport["tree"] {
  const runs = view.runOrder.flatMap((runId) => {
    const run = view.runs[runId];
    if (!run) return [];
    const root = run.rootId ? view.intentions[run.rootId] : undefined;
    return [
      {
        id: run.id,
        task: run.task,
        status: run.status,
        reason: run.reason,
        root: root ? summariseIntention(view, root) : null,
      },
    ];
  });
  return { runs };
}

export function exportSession(meta: ExportMeta, events: readonly StoredEvent[]): SessionExport {
  return {
    format: SESSION_EXPORT_FORMAT,
    version: SESSION_EXPORT_VERSION,
    exportedAt: meta.exportedAt,
    session: meta.session,
    events: [...events],
    tree: summariseTree(foldEvents(events)),
  };
}

export type { Problem };

export type ParsedExport = { ok: true; value: SessionExport } | { ok: false; problems: Problem[] };

/**
 * Validates an uploaded document. Every problem is returned at once, each with its path, so a person
 * can fix a hand-edited file in one pass. The log's references are checked too (an event naming an
 * intention that was never created): otherwise the import would fail half-way inside the database.
 */
export function parseSessionExport(json: unknown): ParsedExport {
  const parsed = SessionExport.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      problems: issuesOf(parsed.error, "(the document)"),
    };
  }
  const problems = checkEventLog(parsed.data.events).map((problem) => ({
    path: `events${problem.path}`,
    message: problem.message,
  }));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: parsed.data };
}
