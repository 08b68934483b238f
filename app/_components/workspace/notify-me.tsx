"use client";

import { useEffect, useState } from "react";

/**
 * Offers browser notifications where the person works, until they answered the browser's question
 * once (the inbox page has the same switch with the full wording).
 */
export function NotifyMe() {
  const [permission, setPermission] = useState<NotificationPermission | "unsupported" | null>(null);
  useEffect(() => {
    setPermission(typeof Notification === "undefined" ? "unsupported" : Notification.permission);
  }, []);
  if (permission !== "default") return null;
  return (
    <button
      type="button"
      className="link small"
      title="A browser notification when an approval waits and this page is in the background"
      onClick={async () => setPermission(await Notification.requestPermission())}
      data-testid="notify-me"
    >
      Notify me
    </button>
  );
}
