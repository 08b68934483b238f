import type { EventOf } from "@/server/domain/events/schema";
import type { RunRoute } from "@/server/domain/vocabulary/session";

/**
 * The answer path as a reader sees it: how the router sent the run, and the read-only tool calls made
 * while answering (shown under the answer). Kept out of `fold.ts` so the session fold stays small.
 */

export interface RouteView {
  route: RunRoute;
  kind: string;
  reason: string;
}

export interface AnswerToolView {
  callId: string;
  tool: string;
  target: string;
  status: EventOf<"answer-tool-called">["status"];
  summary: string;
}

export interface AnswerFields {
  route: RouteView | null;
  answerTools: AnswerToolView[];
}

export function foldAnswer(
  run: AnswerFields | undefined,
  body: EventOf<"run-routed"> | EventOf<"answer-tool-called">,
): void {
  if (!run) return;
  if (body.type === "run-routed") {
    run.route = { route: body.route, kind: body.kind, reason: body.reason };
    return;
  }
  if (run.answerTools.some((call) => call.callId === body.callId)) return;
  const { callId, tool, target, status, summary } = body;
  run.answerTools.push({ callId, tool, target, status, summary });
}
