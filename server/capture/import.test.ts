import { describe, expect, it } from "vitest";
import { EventBody, type StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import type { SessionView } from "@/server/domain/session/view";
import { verifiedRun as verified, waitingRun as waiting } from "@/testing/events/capture-events";
import { sequence } from "@/testing/events/events";
import { ID_FIELDS, IMPORTED_UNFINISHED_REASON, type ImportPlan, planImport } from "./import";

let counter = 0;
const newId = () => `new-${++counter}`;

/** The imported view with every new id put back to the original it replaced. */
function renameBack(view: SessionView, plan: ImportPlan): SessionView {
  let json = JSON.stringify(view);
  for (const { from, to } of plan.renamed) json = json.split(JSON.stringify(to)).join(JSON.stringify(from));
  return JSON.parse(json) as SessionView;
}

describe("planImport", () => {
  it("replaces every id, and the fold of the import equals the original's modulo ids", () => {
    const original = sequence(verified);
    const plan = planImport(original, newId);
    expect(plan.bodies).toHaveLength(original.length);
    expect(plan.stoppedRunIds).toEqual([]);
    // Stored in the same order with the same times, so only the ids may differ.
    const imported = foldEvents(sequence(plan.bodies));
    expect(renameBack(imported, plan)).toEqual(foldEvents(original));

    const originalIds = new Set(plan.renamed.map((entry) => entry.from));
    for (const body of plan.bodies) {
      const fields: Record<string, unknown> = body;
      for (const field of Object.keys(ID_FIELDS)) {
        const value = fields[field];
        if (typeof value === "string") expect(originalIds.has(value), `${body.type}.${field}`).toBe(false);
      }
    }
    expect(new Set(plan.renamed.map((entry) => entry.kind))).toEqual(
      new Set(["run", "intention", "cycle", "approval", "message"]),
    );
  });

  it("keeps references consistent: a child still points at its parent, a cycle at its intention", () => {
    const plan = planImport(sequence(verified), newId);
    const view = foldEvents(sequence(plan.bodies));
    const run = Object.values(view.runs)[0];
    const root = run?.rootId ? view.intentions[run.rootId] : undefined;
    expect(root?.childIds).toHaveLength(2);
    for (const childId of root?.childIds ?? []) expect(view.intentions[childId]?.parentId).toBe(root?.id);
    expect(Object.values(view.approvals)[0]?.intentionId).toBe(root?.id);
    expect(view.messages.map((message) => message.runId)).toEqual([run?.id, run?.id]);
  });

  it("gives fresh ids on every import, so the same file can be imported twice", () => {
    const events = sequence(verified);
    const first = planImport(events);
    const second = planImport(events);
    const firstIds = new Set(first.renamed.map((entry) => entry.to));
    expect(first.renamed.length).toBe(second.renamed.length);
    for (const entry of second.renamed) expect(firstIds.has(entry.to)).toBe(false);
  });

  it("ends a run that was still running, and leaves its pending approval visible", () => {
    const original = sequence([...verified, ...waiting]);
    const plan = planImport(original, newId);
    expect(plan.stoppedRunIds).toEqual(["run-2"]);
    expect(plan.bodies).toHaveLength(original.length + 1);
    expect(plan.bodies.at(-1)).toMatchObject({
      type: "run-ended",
      status: "STOPPED",
      reason: IMPORTED_UNFINISHED_REASON,
    });

    const imported = renameBack(foldEvents(sequence(plan.bodies)), plan);
    const expected = foldEvents(original);
    expect(imported.runs["run-2"]).toMatchObject({ status: "STOPPED", reason: IMPORTED_UNFINISHED_REASON });
    expect(imported.approvals.ap2?.status).toBe("PENDING");
    // Apart from the run that was ended (and the one event that ended it), nothing differs.
    const stopped = imported.runs["run-2"];
    const running = expected.runs["run-2"];
    if (!stopped || !running) throw new Error("run-2 missing");
    expect({ ...stopped, status: running.status, reason: null, endedAt: null }).toEqual(running);
    expect({ ...imported, lastSeq: expected.lastSeq, runs: expected.runs }).toEqual(expected);
  });

  it("writes bodies the event schema accepts", () => {
    for (const body of planImport(sequence([...verified, ...waiting])).bodies) {
      expect(EventBody.safeParse(body).success).toBe(true);
    }
  });

  it("knows every id field of every event type (a new `…Id` field must be added to ID_FIELDS)", () => {
    const known = new Set(Object.keys(ID_FIELDS));
    // Fields that end in Id but name something outside the session's id space.
    // (terminalId: a Docker exec id; opaque, so an import keeps it as it is.)
    // A project intent's id (INT-001) names a row of the project, not of the session: kept as it is.
    const notSessionIds = new Set(["modelId", "terminalId", "intentId"]);
    for (const option of EventBody.options) {
      for (const field of Object.keys(option.shape)) {
        if (/Id$/.test(field) && !notSessionIds.has(field))
          expect(known.has(field), `${option.shape.type.value}.${field}`).toBe(true);
      }
    }
  });

  it("imports an empty log as an empty session", () => {
    const empty: StoredEvent[] = [];
    expect(planImport(empty)).toEqual({ bodies: [], renamed: [], stoppedRunIds: [] });
  });
});
