import "server-only";
import { createRouter, sessionProcedure } from "@/server/api/trpc";
import { readAllEvents } from "@/server/capture/read";
import { foldEvents } from "@/server/domain/session/fold";
import { intentMap, recordsFromEvents, toJsonl, withEvidence } from "@/server/governance/ledger/export";

/** The trace ledger (seed 003) of a session, as the files `agent_trace.jsonl` and `intent_map.md`. */
export const traceRouter = createRouter({
  /** `agent_trace.jsonl`: every Agent Trace record of the session, one per line. */
  /** Each record carries the kind of evidence its intention was verified on (null when it was not). */
  sessionTrace: sessionProcedure.query(async ({ ctx }) => {
    const events = await readAllEvents(ctx.app.store, ctx.session.id);
    return toJsonl(withEvidence(recordsFromEvents(events), foldEvents(events).intentions));
  }),

  /** `intent_map.md`: which intentions touched which files, titled with each intention's goal. */
  intentMap: sessionProcedure.query(async ({ ctx }) => {
    const events = await readAllEvents(ctx.app.store, ctx.session.id);
    const view = foldEvents(events);
    const intentionTitles = Object.fromEntries(
      Object.values(view.intentions).map((intention) => [intention.id, intention.what]),
    );
    return intentMap(recordsFromEvents(events), {
      title: `Intent map — ${ctx.session.title}`,
      intentionTitles,
    });
  }),
});
