import { expect, test } from "@playwright/test";
import {
  createProject,
  expectRunStatus,
  newUser,
  setCheckpoints,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/**
 * Test results, not only exit codes (issue #15 item 4), in real Chromium with a real sandbox: a test
 * command's node shows its counts and failing tests, and a run in which no test ran is not a pass.
 */
test("a failing node:test run shows its counts and the failing test's name", async ({ page }) => {
  await signUp(page, newUser("counter"));
  await createProject(page, "Test counts");
  await setCheckpoints(page, { commands: "never-ask" });
  await startTask(
    page,
    'run `mkdir -p test && echo \'require("node:test")("adds negatives", () => { throw new Error("no"); });\' > test/a.test.js && node --test`',
  );
  await expectRunStatus(page, "FAILED");
  // The latest cycle is open; its result shows the counts read from node's summary lines.
  const counts = page.getByTestId("cycle-tests").last();
  await expect(counts).toBeVisible();
  await expect(counts).toContainText("0 passed, 1 failed, 0 skipped");
  await expect(counts.getByRole("list", { name: "Failing tests" })).toHaveText("adds negatives");
  await expect(counts).toHaveAttribute("data-failed", "1");

  // The replay shows the same counts from the stored event.
  await page.getByTestId("open-replay").click();
  await expect(page).toHaveURL(/\/replay$/);
  const cycle = page.getByTestId("cycle").last();
  await cycle.locator("summary").first().click();
  await expect(cycle.getByTestId("cycle-tests")).toContainText("0 passed, 1 failed, 0 skipped");
  await expect(cycle.getByTestId("cycle-tests")).toContainText("adds negatives");
});

test("a test command that ran zero tests is not a pass", async ({ page }) => {
  await signUp(page, newUser("zero"));
  await createProject(page, "Zero tests");
  await setCheckpoints(page, { commands: "never-ask" });
  await startTask(page, "run `node --test`");
  await expectRunStatus(page, "FAILED");
  const counts = page.getByTestId("cycle-tests").last();
  await expect(counts).toBeVisible();
  await expect(counts).toContainText("0 passed, 0 failed, 0 skipped");
  await expect(counts).toContainText("ran 0 tests: not a pass");
  await expect(counts).toHaveAttribute("data-ran", "0");
  await expect(page.getByTestId("cycle-judgment").last()).toHaveAttribute("data-status", "PARTIAL");
  await expect(page.getByTestId("cycle-judged-by").last()).toContainText("exit code 0, but ran 0 tests");
});
