import { expect, test } from "@playwright/test";
import { createProject, expectRunStatus, intentions, newUser, signUp, startTask } from "./support/arbor";

/** A finished session replayed: scrub back to the decomposition, play forward to the end. */
test("a replay scrubs back to an earlier state and plays forward to the end", async ({ page }) => {
  await signUp(page, newUser("replayer"));
  await createProject(page, "Replay");
  await startTask(page, "run `echo one` and then run `echo two`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");

  await page.getByTestId("open-replay").click();
  await expect(page).toHaveURL(/\/replay$/);
  const position = page.getByTestId("replay-position");
  await expect(position).toContainText(/event (\d+) of \1/);
  await expect(intentions(page)).toHaveCount(3);

  await page.locator('[data-testid="replay-marker"][data-kind="decomposition"]').click();
  await expect(page.getByTestId("replay-waiting")).toContainText("decomposition");
  await expect(intentions(page)).toHaveCount(1);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "RUNNING");

  await page.getByTestId("replay-scrubber").fill("0");
  await expect(page.getByText("Nothing had happened yet.")).toBeVisible();
  await page.getByTestId("replay-speed").selectOption("64");
  await page.getByTestId("replay-play").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "VERIFIED", {
    timeout: 30_000,
  });
  await expect(intentions(page)).toHaveCount(3);
  await expect(page.getByTestId("replay-play")).toHaveText("Play");
});
