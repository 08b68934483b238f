"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useTRPC } from "../../_trpc/client";

/**
 * The project's sessions, newest first, as a select in the workspace's top bar: another session is
 * one choice away, and "New session…" goes to the project page's task box.
 */
export function SessionSwitcher({
  projectId,
  sessionId,
  title,
  runStatus,
}: {
  projectId: string;
  sessionId: string;
  title: string;
  /** This session's latest run's state: when it changes, the list (which names it) is asked again. */
  runStatus: string | undefined;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const sessions = useQuery({ ...trpc.session.list.queryOptions({ projectId }), refetchOnMount: "always" });
  const { refetch } = sessions;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runStatus is the trigger, not an input.
  useEffect(() => {
    void refetch();
  }, [runStatus, refetch]);
  // A session just opened may not be in a list cached on the project page yet: it is always listed.
  const listed = sessions.data ?? [];
  const list = listed.some((session) => session.id === sessionId)
    ? listed
    : [{ id: sessionId, title, latest: null }, ...listed];
  return (
    <select
      className="session-switcher"
      aria-label="Session"
      value={sessionId}
      data-testid="session-switcher"
      onChange={(event) => {
        const next = event.target.value;
        router.push(next === "" ? `/projects/${projectId}` : `/projects/${projectId}/sessions/${next}`);
      }}
    >
      {list.map((session) => (
        <option key={session.id} value={session.id}>
          {session.title}
          {session.latest ? ` — ${session.latest.shown.replace("_", " ").toLowerCase()}` : ""}
        </option>
      ))}
      <option value="">New session…</option>
    </select>
  );
}
