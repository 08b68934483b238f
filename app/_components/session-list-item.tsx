import Link from "next/link";
import type { RouterOutputs } from "@/app/_trpc/router-types";
import { firstLineSummary } from "@/server/domain/text/fit-text";
import { ShownStatusBadge } from "./session/status-badge";

type SessionItem = RouterOutputs["session"]["list"][number];

/** A session in its project's list: its title, and its latest run's task and shown status. */
export function SessionListItem({ projectId, session }: { projectId: string; session: SessionItem }) {
  const latestTask = session.latest ? firstLineSummary(session.latest.task, 80).line : "";
  return (
    <>
      <span className="session-item">
        <Link href={`/projects/${projectId}/sessions/${session.id}`}>{session.title}</Link>
        {latestTask && !session.title.startsWith(latestTask.slice(0, 60)) && (
          <span className="muted small" data-testid="session-latest-task">
            {" "}
            latest: {latestTask}
          </span>
        )}
      </span>
      {session.latest && (
        <ShownStatusBadge shown={session.latest.shown} stored={session.latest.status} testId="run-status" />
      )}
    </>
  );
}
