import { expect, test } from "@playwright/test";
import {
  createProject,
  expectRunStatus,
  newUser,
  openProjectSettings,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/** The session's work reaches the project: saved as its branch, merged, and seen by the next session. */
test("a session's work is saved, merged into the project, and the next session starts from it", async ({
  page,
}) => {
  // "Nothing to save" must never show for a session that changed a file, not even for a moment while
  // the Changes panel compares again after the run (it once did, from a comparison made mid-run).
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="work-unchanged"]'))
        document.documentElement.dataset.sawUnchanged = "yes";
    }).observe(document, { childList: true, subtree: true });
  });
  await signUp(page, newUser("merger"));
  const projectId = await createProject(page, "Merge demo");
  await openProjectSettings(page);
  await page.getByTestId("checkpoint-commands").selectOption("never-ask");
  await page.getByTestId("save-checkpoints").click();
  await expect(page.getByTestId("checkpoints-saved")).toBeVisible();
  await startTask(page, "run `printf 'from session one\\n' > hello.txt` and then run `cat hello.txt`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expect(page.getByTestId("changed-file").first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.dataset.sawUnchanged)).toBeUndefined();

  await page.getByTestId("work-message").fill("Add hello.txt");
  await page.getByTestId("work-save").click();
  await expect(page.getByTestId("work-state")).toHaveAttribute("data-state", "saved");
  await expect(page.getByTestId("work-state")).toContainText("1 file changed");
  await page.getByTestId("work-merge").click();
  await expect(page.getByTestId("work-state")).toHaveAttribute("data-state", "merged");

  await page.goto(`/projects/${projectId}`);
  await startTask(page, "run `cat hello.txt`");
  await expectRunStatus(page, "VERIFIED");
  await expect(page.getByTestId("cycle-output").first()).toContainText("from session one");
});

test("saving work that contains a secret is blocked until overridden", async ({ page }) => {
  await signUp(page, newUser("leaky"));
  await createProject(page, "Secrets");
  await openProjectSettings(page);
  await page.getByTestId("checkpoint-commands").selectOption("never-ask");
  await page.getByTestId("save-checkpoints").click();
  await expect(page.getByTestId("checkpoints-saved")).toBeVisible();
  await startTask(page, "run `printf 'TOKEN=abc\\n' > .env`");
  // Writing a protected file (.env) asks even when commands never ask.
  const card = page.locator('[data-testid="approval-card"][data-kind="command"]');
  await expect(card.getByTestId("gate-reason")).toContainText(".env");
  await card.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await page.getByTestId("work-save").click();
  await expect(page.getByTestId("work-findings")).toContainText(".env");
  await expect(page.getByTestId("work-state")).toHaveCount(0);
  await page.getByTestId("work-save-anyway").click();
  await expect(page.getByTestId("work-state")).toContainText("Saved despite a secret warning");
});
