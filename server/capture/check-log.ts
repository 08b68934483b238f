import type { StoredEvent } from "@/server/domain/events/schema";

/** One thing wrong with an uploaded document, at a path a person can find in the file. */
export interface Problem {
  path: string;
  message: string;
}

/**
 * Checks that a log which is valid event by event also hangs together: sequence numbers rise, every
 * id is introduced once, and every reference points at something introduced earlier. These are the
 * facts the projections and the fold rely on; a log written by Arbor always has them, a hand-edited
 * one may not, and an import must refuse it before writing anything. Paths are relative to the
 * events array (`[3].body.intentionId`).
 */
export function checkEventLog(events: readonly StoredEvent[]): Problem[] {
  const problems: Problem[] = [];
  const runs = new Set<string>();
  const intentions = new Set<string>();
  const approvals = new Set<string>();
  const messages = new Set<string>();
  // A cycle's later events must name the intention it started on, or the fold cannot find it.
  const cycles = new Map<string, string>();
  let lastSeq = 0;

  events.forEach((event, index) => {
    const at = (field: string) => `[${index}]${field}`;
    const fail = (field: string, message: string) => problems.push({ path: at(field), message });
    const body = event.body;

    if (event.seq <= lastSeq) fail(".seq", `sequence number ${event.seq} does not follow ${lastSeq}`);
    lastSeq = Math.max(lastSeq, event.seq);

    // Ids are read by field name (the schema's convention), so event types added later are checked too.
    const fields: Record<string, unknown> = body;
    const ref = (field: string): string | null => {
      const value = fields[field];
      return typeof value === "string" ? value : null;
    };
    const runId = ref("runId");
    const intentionId = ref("intentionId");
    const cycleId = ref("cycleId");
    const approvalId = ref("approvalId");
    const parentId = ref("parentId");
    const introduce = (set: Set<string>, id: string, field: string, what: string) => {
      if (set.has(id)) fail(field, `${what} "${id}" is introduced twice`);
      set.add(id);
    };

    if (body.type === "message-posted") {
      // The user's message is posted just before its run starts, so its runId may point forward.
      introduce(messages, body.messageId, ".body.messageId", "message");
      return;
    }
    if (body.type === "run-started") {
      introduce(runs, body.runId, ".body.runId", "run");
      return;
    }
    if (runId !== null && !runs.has(runId))
      fail(".body.runId", `run "${runId}" is not started before this event`);
    if (parentId !== null && !intentions.has(parentId))
      fail(".body.parentId", `intention "${parentId}" is not created before this event`);

    if (body.type === "intention-created") {
      introduce(intentions, body.intentionId, ".body.intentionId", "intention");
      return;
    }
    if (intentionId !== null && !intentions.has(intentionId))
      fail(".body.intentionId", `intention "${intentionId}" is not created before this event`);

    if (body.type === "approval-requested")
      introduce(approvals, body.approvalId, ".body.approvalId", "approval");
    else if (approvalId !== null && !approvals.has(approvalId))
      fail(".body.approvalId", `approval "${approvalId}" is not requested before this event`);

    if (body.type === "cycle-started") {
      if (cycles.has(body.cycleId)) fail(".body.cycleId", `cycle "${body.cycleId}" is introduced twice`);
      cycles.set(body.cycleId, body.intentionId);
    } else if (cycleId !== null) {
      const owner = cycles.get(cycleId);
      if (owner === undefined) fail(".body.cycleId", `cycle "${cycleId}" is not started before this event`);
      else if (intentionId !== null && owner !== intentionId)
        fail(".body.intentionId", `cycle "${cycleId}" belongs to intention "${owner}"`);
    }
  });
  return problems;
}
