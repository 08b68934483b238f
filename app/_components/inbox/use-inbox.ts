"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { useTRPC } from "../../_trpc/client";
import { newArrivals, sessionOfPath } from "./new-arrivals";

/** How often the inbox asks: a question should reach its person within a few seconds. */
const POLL_MS = 4_000;

const KIND_TITLES: Record<string, string> = {
  decomposition: "A decomposition waits for your approval",
  command: "A command waits for your approval",
  tool: "A change (a write, an edit, a delete, a commit) waits for your approval",
  budget: "The agent reached its budget",
};

/**
 * The pending approvals of all the caller's teams. With `notify` (the header's badge, mounted on
 * every page), a browser notification for each new one when the person allowed them, unless they are
 * looking at that very session. React Query shares one request between the badge and the inbox page.
 */
export function useInbox({ notify = false }: { notify?: boolean } = {}) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const query = useQuery({ ...trpc.inbox.pending.queryOptions(), refetchInterval: POLL_MS });
  const seen = useRef<Set<string> | null>(null);

  useEffect(() => {
    if (!notify || !query.data) return;
    const { notify: arrivals, seen: next } = newArrivals(seen.current, query.data.items, {
      sessionId: sessionOfPath(pathname),
      pageVisible: document.visibilityState === "visible",
    });
    seen.current = next;
    if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
    for (const item of arrivals) {
      const notification = new Notification(KIND_TITLES[item.kind] ?? "Arbor is waiting for you", {
        body: `${item.projectName}: ${item.what}`.slice(0, 200),
        tag: item.approvalId,
      });
      notification.onclick = () => {
        window.focus();
        router.push(`/projects/${item.projectId}/sessions/${item.sessionId}`);
      };
    }
  }, [notify, query.data, pathname, router]);

  return query;
}
