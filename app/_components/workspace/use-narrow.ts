"use client";

import { useSyncExternalStore } from "react";

/** Below this width the workspace stacks its panes behind one row of tabs (phones, narrow windows). */
const NARROW_QUERY = "(max-width: 900px)";

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True on a narrow screen; null during server rendering, when the width is not known yet. */
export function useNarrow(): boolean | null {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW_QUERY).matches,
    () => null,
  );
}
