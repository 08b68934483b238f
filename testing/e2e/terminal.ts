import type { Page } from "@playwright/test";

/** The rendered terminal text (xterm's DOM renderer draws each row as text). */
export function screen(page: Page) {
  return page.getByTestId("terminal-screen").locator(".xterm-rows");
}

/** Types a line into the session's terminal and presses Enter, as a person would. */
export async function typeInTerminal(page: Page, line: string): Promise<void> {
  await page.getByTestId("terminal-screen").click();
  await page.keyboard.type(line);
  await page.keyboard.press("Enter");
}
