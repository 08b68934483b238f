import { expect, test } from "@playwright/test";
import {
  approvalCard,
  createProject,
  expectRunStatus,
  intentions,
  newUser,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/** Issue #15 in Chromium: what VERIFIED rests on, on the node and in the replay; an edit never inherits a check. */

test("a red → green verification is shown on the node and in the replay", async ({ page }) => {
  await signUp(page, newUser("redgreen"));
  await createProject(page, "Red green");
  await startTask(page, "create `notes.txt` containing `hello`");
  await approvalCard(page, "tool").getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");

  const node = intentions(page).first();
  // Before any work the check was red (the file did not exist); after the write it passed.
  await expect(node.getByTestId("baseline-check").first()).toHaveAttribute("data-state", "red");
  await expect(node.getByTestId("intention-evidence")).toHaveAttribute("data-evidence", "red-to-green");
  await expect(node.getByTestId("intention-evidence")).toContainText("red → green");

  await page.getByTestId("open-replay").click();
  await expect(page).toHaveURL(/\/replay$/);
  await expect(page.getByTestId("replay-position")).toContainText(/event (\d+) of \1/);
  const replayed = intentions(page).first();
  await expect(replayed.getByTestId("intention-evidence")).toHaveAttribute("data-evidence", "red-to-green");
  await expect(replayed.getByTestId("baseline-check").first()).toHaveAttribute("data-state", "red");
});

test("an edited command does not inherit the check: the check runs itself and nothing is verified", async ({
  page,
}) => {
  await signUp(page, newUser("editor15"));
  await createProject(page, "Edited check");
  await startTask(page, "run `cargo test`");

  // The agent proposes the requested command; the person edits it into something else.
  const card = approvalCard(page, "command");
  await expect(card.getByTestId("command-input")).toHaveValue("cargo test");
  await card.getByTestId("command-input").fill("ls -a && touch checked.txt");
  await card.getByTestId("approve").click();

  // The check (`cargo test` itself) asks before it runs: approving it runs exactly it.
  const check = approvalCard(page, "command");
  await expect(check.getByTestId("command-input")).toHaveValue("cargo test");
  await check.getByTestId("approve").click();

  const node = intentions(page).first();
  await expect(node.getByTestId("cycle-judged-by").first()).toContainText("waits for a person's approval");
  // The reason shows on the node (it may also sit in a collapsed list of corrections: the visible one).
  await expect(
    node.getByText("`cargo` is not installed in this sandbox").filter({ visible: true }).first(),
  ).toBeVisible();
  // The agent asks again (its next attempt): the person ends the run there.
  const next = page.getByTestId("approval-card").first();
  await next.getByTestId("reject").click();
  await page.getByTestId("abort-run").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", /FAILED|STOPPED/);
  await expect(page.getByTestId("run-status")).not.toHaveAttribute("data-status", "VERIFIED");
  await expect(node.getByTestId("intention-status").first()).not.toHaveAttribute("data-status", "VERIFIED");
});
