import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import {
  approvalCard,
  createProject,
  newUser,
  openProjectSettings,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/**
 * Deleting a project from its settings page: the dialog says what goes (a session, its run waiting
 * for a person that will be stopped), Delete stays disabled until the exact name is typed, and the
 * team's project list comes back without it. The section passes axe-core in both themes, closed and open.
 */

/** The section's serious and critical axe-core violations, in each theme. */
async function axeViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    const results = await new AxeBuilder({ page })
      .include('[data-testid="settings-delete"]')
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    for (const violation of results.violations)
      if (violation.impact === "serious" || violation.impact === "critical")
        found.push(`${theme}: ${violation.id}`);
  }
  return found;
}

test("an owner deletes a project with a waiting run from its settings page", async ({ page }) => {
  await signUp(page, newUser("delete"));
  await createProject(page, "Keep me");
  await createProject(page, "Delete me");
  await startTask(page, "run `touch made.txt`");
  await expect(approvalCard(page, "command")).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId("project-title")).toHaveText("Delete me");
  await openProjectSettings(page);

  const section = page.getByTestId("settings-delete");
  await expect(section.getByTestId("delete-project-open")).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await section.getByTestId("delete-project-open").click();
  const dialog = page.getByRole("alertdialog", { name: "Delete Delete me? This cannot be undone." });
  await expect(dialog.getByTestId("delete-project-what")).toContainText(
    "1 session with its history and sandbox; 1 running run will be stopped",
  );
  await expect(dialog).toContainText("not the upstream remote");
  expect(await axeViolations(page)).toEqual([]);

  const confirm = dialog.getByTestId("delete-project-confirm");
  await expect(confirm).toBeDisabled();
  await dialog.getByTestId("delete-project-name").fill("delete me");
  await expect(confirm).toBeDisabled();
  await dialog.getByTestId("delete-project-name").fill("Delete me");
  await confirm.click();

  await expect(page).toHaveURL(/\/projects\?team=/);
  const list = page.getByTestId("project-list");
  await expect(list).toContainText("Keep me");
  await expect(list).not.toContainText("Delete me");
});
