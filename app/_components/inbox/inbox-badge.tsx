"use client";

import Link from "next/link";
import { useInbox } from "./use-inbox";

/** The header's link to the inbox, with how many questions wait for the caller. */
export function InboxBadge() {
  const inbox = useInbox({ notify: true });
  const total = inbox.data?.total ?? 0;
  return (
    <Link
      href="/inbox"
      prefetch={false}
      data-testid="nav-inbox"
      aria-label={total === 0 ? "Approvals inbox, nothing waiting" : `Approvals inbox, ${total} waiting`}
    >
      Inbox
      {total > 0 && (
        <span className="badge warn inbox-count" data-testid="inbox-count">
          {total}
        </span>
      )}
    </Link>
  );
}
