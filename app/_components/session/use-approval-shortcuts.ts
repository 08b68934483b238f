"use client";

import { useEffect, useRef } from "react";

/** The first waiting card answers the keyboard: A approves (confirms), R opens the rejection (override). */
export function useApprovalShortcuts(enabled: boolean, onApprove: () => void, onReject: () => void) {
  const handlers = useRef({ onApprove, onReject });
  handlers.current = { onApprove, onReject };
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.closest("input, textarea, select, [contenteditable]") !== null;
      if (typing || event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key === "a") {
        event.preventDefault();
        handlers.current.onApprove();
      } else if (event.key === "r") {
        event.preventDefault();
        handlers.current.onReject();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [enabled]);
}
