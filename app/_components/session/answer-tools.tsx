import type { AnswerToolView } from "@/server/domain/session/answer-view";

/** The read-only tool calls an answer was built from, under the answer: tool, what it looked at, status. */
export function AnswerTools({ calls }: { calls: readonly AnswerToolView[] }) {
  if (calls.length === 0) return null;
  return (
    <details className="answer-tools" data-testid="answer-tools" open>
      <summary>
        {calls.length} tool call{calls.length === 1 ? "" : "s"} (read-only)
      </summary>
      <ul>
        {calls.map((call) => (
          <li key={call.callId} data-testid="answer-tool" data-status={call.status} title={call.summary}>
            <code>{call.tool}</code> {call.target && <span className="muted">{call.target}</span>}{" "}
            <span className={`pill ${call.status === "ok" ? "" : "warn"}`}>{call.status}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
