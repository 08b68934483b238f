import { type AgentTraceRecord, arborMetadataOf } from "@/server/domain/events/trace-schema";

/**
 * Line counts from trace ledger records, for the dashboard's "AI-written lines merged without a
 * passing check". Pure.
 */

/** Lines attributed to an AI contributor (a range's own contributor wins over its conversation's). */
export function aiLinesOf(record: AgentTraceRecord): number {
  let lines = 0;
  for (const file of record.files) {
    for (const conversation of file.conversations) {
      for (const range of conversation.ranges) {
        const contributor = range.contributor ?? conversation.contributor;
        if (contributor?.type !== "ai") continue;
        lines += range.end_line - range.start_line + 1;
      }
    }
  }
  return lines;
}

/** A record passed its check when the cycle that wrote it was judged SUCCESS; unknown is not a pass. */
export function passedCheck(record: AgentTraceRecord): boolean {
  return arborMetadataOf(record)?.check_result === "SUCCESS";
}
