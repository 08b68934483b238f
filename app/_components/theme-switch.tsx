"use client";

import { useEffect, useState } from "react";
import { parseTheme, THEME_KEY, THEMES, type Theme } from "./theme";

const LABELS: Record<Theme, string> = { system: "System theme", light: "Light", dark: "Dark" };

/** Header control: system, light or dark, applied at once and remembered in this browser. */
export function ThemeSwitch() {
  const [theme, setTheme] = useState<Theme>("system");
  useEffect(() => setTheme(parseTheme(localStorage.getItem(THEME_KEY))), []);

  function choose(next: Theme) {
    setTheme(next);
    if (next === "system") {
      localStorage.removeItem(THEME_KEY);
      delete document.documentElement.dataset.theme;
    } else {
      localStorage.setItem(THEME_KEY, next);
      document.documentElement.dataset.theme = next;
    }
  }

  return (
    <select
      aria-label="Theme"
      data-testid="theme-switch"
      value={theme}
      onChange={(event) => choose(parseTheme(event.target.value))}
    >
      {THEMES.map((t) => (
        <option key={t} value={t}>
          {LABELS[t]}
        </option>
      ))}
    </select>
  );
}
