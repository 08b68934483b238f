import { describe, expect, it } from "vitest";
import { parseTheme, THEME_BOOT_SCRIPT } from "./theme";

describe("theme", () => {
  it("reads a stored theme, anything else is the system's", () => {
    expect(parseTheme("dark")).toBe("dark");
    expect(parseTheme("light")).toBe("light");
    expect(parseTheme("purple")).toBe("system");
    expect(parseTheme(null)).toBe("system");
  });

  it("boots the stored theme onto the document before paint", () => {
    const storage = new Map([["arbor-theme", "dark"]]);
    const documentElement = { dataset: {} as Record<string, string> };
    new Function("localStorage", "document", THEME_BOOT_SCRIPT)(
      { getItem: (key: string) => storage.get(key) ?? null },
      { documentElement },
    );
    expect(documentElement.dataset.theme).toBe("dark");
  });
});
