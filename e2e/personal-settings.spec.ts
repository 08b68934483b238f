import { expect, test } from "@playwright/test";
import {
  approvalCard,
  createProject,
  expectRunStatus,
  newUser,
  openProjectSettings,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/**
 * Issue #20.3's person layer from the browser: a person sets their own model and a stricter command
 * checkpoint on their account page; the project's settings show them as "you", and their next run
 * uses both (another member's runs do not: server/settings/user-layer.integration.test.ts).
 */
test("a person's own settings reach their runs: their model answers and their stricter checkpoint asks", async ({
  page,
}) => {
  await signUp(page, newUser("personal"));
  await createProject(page, "Personal settings");

  await page.getByTestId("current-user").click();
  await expect(page.getByTestId("personal-settings")).toBeVisible();
  await page.getByTestId("personal-model-name").fill("person-model");
  await page.getByTestId("personal-commands").selectOption("ask-always");
  // A bad value is named before anything is saved.
  await page.getByTestId("personal-maxIterations").fill("lots");
  await expect(page.getByTestId("personal-settings-problem")).toHaveText("Actions per run: must be a number");
  await expect(page.getByTestId("save-personal-settings")).toBeDisabled();
  await page.getByTestId("personal-maxIterations").fill("8");
  await page.getByTestId("save-personal-settings").click();
  await expect(page.getByTestId("personal-settings-saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("personal-model-name")).toHaveValue("person-model");
  await expect(page.getByTestId("personal-commands")).toHaveValue("ask-always");

  await page.goto("/projects");
  await page.getByRole("link", { name: "Personal settings" }).first().click();
  await openProjectSettings(page);
  await expect(page.getByTestId("resolved-modelName")).toContainText("person-model");
  await expect(page.getByTestId("resolved-modelName")).toContainText("you (your own settings)");

  // `ls` is read-only: the project's default lets it run unasked; this person's own checkpoint asks.
  await startTask(page, "run `ls`");
  await expect(approvalCard(page, "command")).toBeVisible();
  await approvalCard(page, "command").getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expect(page.getByTestId("message-model").first()).toContainText("person-model");
  // `ls` changed nothing: the Work card says so instead of offering to save it.
  await expect(page.getByTestId("work-unchanged")).toHaveText(
    "Nothing to save: this session has changed no files.",
  );
  await expect(page.getByTestId("work-save")).toBeDisabled();
});
