"use client";

import { useEffect, useRef } from "react";
import type { ApprovalView } from "@/server/domain/session/view";
import { newArrivals } from "../inbox/new-arrivals";
import { sessionTabTitle } from "./tab-title";

/**
 * Notices for the open session: the tab title counts the waiting approvals, and a new one raises a
 * browser notification at once (from the live event stream, not the inbox's poll) when the page is
 * hidden and the person allowed notifications. Same rule and same tag as the inbox's notifications
 * (app/_components/inbox/use-inbox.ts), so one approval makes one notification.
 */
export function useSessionNotices({
  sessionId,
  title,
  pending,
  running,
}: {
  sessionId: string;
  title: string;
  pending: ApprovalView[];
  running: boolean;
}) {
  useEffect(() => {
    const before = document.title;
    document.title = sessionTabTitle(title, pending.length, running);
    return () => {
      document.title = before;
    };
  }, [title, pending.length, running]);

  const seen = useRef<Set<string> | null>(null);
  const latest = useRef(pending);
  latest.current = pending;
  // The approvals are rebuilt on every render; their ids say when the set really changed.
  const waitingIds = pending.map((approval) => approval.id).join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: waitingIds stands for `pending` (read through the ref).
  useEffect(() => {
    const pending = latest.current;
    const items = pending.map((approval) => ({ approvalId: approval.id, sessionId, approval }));
    const { notify, seen: next } = newArrivals(seen.current, items, {
      sessionId,
      pageVisible: document.visibilityState === "visible",
    });
    seen.current = next;
    if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
    for (const { approval } of notify) {
      const notification = new Notification(`${title}: waiting for your approval`, {
        body: (approval.command ?? approval.thought).slice(0, 200),
        tag: approval.id,
      });
      notification.onclick = () => window.focus();
    }
  }, [waitingIds, sessionId, title]);
}
