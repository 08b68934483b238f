import { expect, test } from "@playwright/test";
import { newUser, signUp } from "../testing/e2e/arbor";

const LIGHT_BG = "rgb(247, 247, 245)";
const DARK_BG = "rgb(21, 23, 24)";
const background = (page: import("@playwright/test").Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test("the theme follows the system until the person picks one, and the pick survives a reload", async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await signUp(page, newUser("theo"));
  expect(await background(page)).toBe(LIGHT_BG);

  await page.emulateMedia({ colorScheme: "dark" });
  expect(await background(page)).toBe(DARK_BG);

  await page.getByTestId("theme-switch").selectOption("light");
  expect(await background(page)).toBe(LIGHT_BG);

  await page.emulateMedia({ colorScheme: "light" });
  await page.getByRole("combobox", { name: "Theme" }).selectOption("dark");
  expect(await background(page)).toBe(DARK_BG);

  // Set before the first paint by the boot script, not after React loads.
  await page.reload({ waitUntil: "commit" });
  await page.waitForFunction(() => document.body !== null);
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
  await expect(page.getByTestId("theme-switch")).toHaveValue("dark");
  expect(await background(page)).toBe(DARK_BG);

  await page.getByTestId("theme-switch").selectOption("system");
  expect(await background(page)).toBe(LIGHT_BG);
});
