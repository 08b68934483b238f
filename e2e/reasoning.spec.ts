import { expect, test } from "@playwright/test";
import { createProject, expectRunStatus, newUser, signUp, startTask } from "../testing/e2e/arbor";

/**
 * The reasoning switch in real Chromium against the production build, a real sandbox and the fake
 * model server: with Reasoning on, an Agent task gets a warmup (six sections) shown on the run's root
 * and a reflection in its cycle, both collapsible, and the replay shows the same.
 */
test("Reasoning on: the warmup and each cycle's reflection are shown, live and in the replay", async ({
  page,
}) => {
  await signUp(page, newUser("reasoner"));
  await createProject(page, "Reasoning demo");
  await page.getByTestId("reasoning-switch").check();
  await expect(page.getByTestId("switch-bar")).toHaveAttribute("data-reasoning", "on");
  await startTask(page, "run `echo reasoned`");
  await expectRunStatus(page, "VERIFIED");

  // The warmup's closing statement of next steps is said in the chat.
  await expect(page.getByTestId("message-agent").first()).toContainText("First I will run `echo reasoned`");

  const warmup = page.getByTestId("run-reasoning");
  await expect(warmup).toBeVisible();
  await expect(warmup.getByTestId("reasoning-text")).toBeHidden();
  await warmup.getByText("reasoning before the work (warmup)").click();
  const text = warmup.getByTestId("reasoning-text");
  for (const section of ["Analyze", "Research", "Plan", "Reflect", "Action", "Delivery"])
    await expect(text).toContainText(`**${section}**`);
  await expect(warmup.getByTestId("reasoning-delivery")).toHaveText("NEEDS_WORK");
  await expect(warmup.getByTestId("reasoning-outcome")).toContainText("1. run `echo reasoned`");

  // The cycle's reflection, inside the (closed, succeeded) cycle.
  const cycle = page.getByTestId("cycle").first();
  await cycle.locator("summary").first().click();
  const reflection = cycle.getByTestId("cycle-reasoning");
  await reflection.locator("summary").click();
  await expect(reflection.getByTestId("reasoning-text")).toContainText("**Next action**");

  // The replay folds the same events.
  await page.getByTestId("open-replay").click();
  await expect(page).toHaveURL(/\/replay/);
  const replayed = page.getByTestId("run-reasoning");
  await replayed.getByText("reasoning before the work (warmup)").click();
  await expect(replayed.getByTestId("reasoning-text")).toContainText("**Analyze**");
});

test("Reasoning off: no warmup and no reflection", async ({ page }) => {
  await signUp(page, newUser("plain"));
  await createProject(page, "Plain demo");
  await expect(page.getByTestId("switch-bar")).toHaveAttribute("data-reasoning", "off");
  await startTask(page, "run `echo plain`");
  await expectRunStatus(page, "VERIFIED");
  await expect(page.getByTestId("cycle")).toHaveCount(1);
  await expect(page.getByTestId("run-reasoning")).toHaveCount(0);
  await expect(page.getByTestId("cycle-reasoning")).toHaveCount(0);
});
