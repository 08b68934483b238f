import { expect, test } from "@playwright/test";
import { createProject, expectRunStatus, newUser, signUp, startTask } from "../testing/e2e/arbor";

/** Issue #6: a model picker in the chat box that only the person changes; the run records their pick. */
test("the picked model is remembered per project, recorded on the run and the one that answers", async ({
  page,
}) => {
  await signUp(page, newUser("picker"));
  await createProject(page, "Model picker");
  const picker = page.getByTestId("model-picker");
  // The e2e server's default is the fake model server (an OpenAI-compatible server from the environment).
  await expect(picker.locator("option").first()).toHaveText("default (gpt-4o-mini — from default)");
  await expect(picker.locator("option", { hasText: "Built-in offline model" })).toHaveCount(1);
  await expect(picker.locator("option", { hasText: "gpt-4o-mini (openai-compatible, default)" })).toHaveCount(
    1,
  );

  await picker.selectOption("offline");
  await page.reload();
  await expect(page.getByTestId("model-picker")).toHaveValue("offline");

  await startTask(page, "run `ls`");
  await expectRunStatus(page, "VERIFIED");
  await expect(page.getByTestId("message-model").first()).toContainText("model built-in offline");
  await expect(page.getByTestId("offline-notice")).toBeVisible();
  // Nothing changed the person's pick: the session's chat box shows it too.
  await expect(page.getByTestId("model-picker")).toHaveValue("offline");

  // Picking the listed server model sends the next message to it, and the run records it.
  await page.getByTestId("model-picker").selectOption("openai-compatible:gpt-4o-mini");
  await page.getByTestId("task-input").fill("run `ls`");
  await page.getByTestId("task-submit").click();
  await expect(page.getByTestId("message-model").nth(1)).toContainText("model openai-compatible:gpt-4o-mini");
  await expectRunStatus(page, "VERIFIED");
  await expect(page.getByTestId("offline-notice")).toHaveCount(0);
  await expect(page.getByTestId("model-picker")).toHaveValue("openai-compatible:gpt-4o-mini");
});
