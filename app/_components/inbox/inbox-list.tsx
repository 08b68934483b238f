"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { describeError } from "../../_trpc/client";
import { useInbox } from "./use-inbox";

/** Every question the agent is waiting on across the caller's teams, oldest first. */
export function InboxList() {
  const inbox = useInbox();
  return (
    <div className="stack" data-testid="inbox">
      <nav className="breadcrumbs">
        <Link href="/projects">Projects</Link> / Inbox
      </nav>
      <h1>Waiting for you</h1>
      <NotificationSwitch />
      {inbox.isPending && <p className="muted">Loading…</p>}
      {inbox.error && (
        <p className="error" role="alert">
          {describeError(inbox.error)}
        </p>
      )}
      {inbox.data && inbox.data.items.length === 0 && (
        <p className="muted" data-testid="inbox-empty">
          Nothing is waiting. When the agent needs a decision — a decomposition, a command, more budget — it
          appears here and in the header.
        </p>
      )}
      {inbox.data && inbox.data.items.length > 0 && (
        <ul className="list" aria-label="Waiting approvals">
          {inbox.data.items.map((item) => (
            <li key={item.approvalId} data-testid="inbox-item">
              <span className="badge info">{item.kind}</span>{" "}
              <Link href={`/projects/${item.projectId}/sessions/${item.sessionId}`}>
                {item.projectName} · {item.sessionTitle}
              </Link>
              <div className="small">{item.what}</div>
              {item.command && <code className="small">{item.command}</code>}
              <div className="muted small">waiting since {new Date(item.createdAt).toLocaleTimeString()}</div>
            </li>
          ))}
        </ul>
      )}
      {inbox.data && inbox.data.total > inbox.data.items.length && (
        <p className="muted small">
          Showing the oldest {inbox.data.items.length} of {inbox.data.total}.
        </p>
      )}
    </div>
  );
}

/** Asks the browser for permission to notify; says plainly when it is on, off or blocked. */
function NotificationSwitch() {
  const [permission, setPermission] = useState<NotificationPermission | "unsupported" | null>(null);
  useEffect(() => {
    setPermission(typeof Notification === "undefined" ? "unsupported" : Notification.permission);
  }, []);
  if (permission === null) return null;
  if (permission === "unsupported")
    return <p className="muted small">This browser cannot show notifications.</p>;
  if (permission === "granted")
    return (
      <p className="muted small" data-testid="notifications-on">
        Browser notifications are on: you are told when the agent starts waiting.
      </p>
    );
  if (permission === "denied")
    return (
      <p className="muted small">
        Notifications are blocked for this site; allow them in the browser&apos;s site settings.
      </p>
    );
  return (
    <button
      type="button"
      data-testid="enable-notifications"
      onClick={async () => setPermission(await Notification.requestPermission())}
    >
      Notify me when the agent waits
    </button>
  );
}
