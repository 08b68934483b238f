"use client";

import { useCallback, useEffect, useState } from "react";
import { DEFAULT_SWITCHES, type ModeSwitches, parseSwitches, switchesKey } from "./mode-switches";

/** The project's switches from localStorage; `change` is called only from the person's clicks. */
export function useModeSwitches(projectId: string) {
  const [switches, setSwitches] = useState<ModeSwitches>(DEFAULT_SWITCHES);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    setSwitches(parseSwitches(localStorage.getItem(switchesKey(projectId))));
    setLoaded(true);
  }, [projectId]);
  const change = useCallback(
    (next: Partial<ModeSwitches>) => {
      setSwitches((current) => {
        const updated = { ...current, ...next };
        localStorage.setItem(switchesKey(projectId), JSON.stringify(updated));
        return updated;
      });
    },
    [projectId],
  );
  return { switches, loaded, change };
}
