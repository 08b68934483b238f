import { expect, test } from "@playwright/test";
import {
  child,
  createProject,
  expectRunStatus,
  newUser,
  openProjectSettings,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/**
 * Advisory QA (seed 001 §2.3) and the delivery gate (§2.5) from the browser. The fake model server's
 * reviewer fails work whose task is marked "(qa-fail)": the report shows on the node, and nothing else
 * moves — every intention stays VERIFIED and the run's delivery stays DONE.
 */

test("QA on: a node's report opens from the tree, and a QA fail changes no status", async ({ page }) => {
  await signUp(page, newUser("reviewer"));
  await createProject(page, "Reviewed");
  await openProjectSettings(page);
  await page.getByTestId("checkpoint-decompositions").selectOption("auto");
  await page.getByTestId("checkpoint-qa-review").selectOption("on");
  await page.getByTestId("checkpoint-qa-feedback").check();
  await page.getByTestId("save-checkpoints").click();
  await expect(page.getByTestId("checkpoints-saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("checkpoint-qa-review")).toHaveValue("on");
  await expect(page.getByTestId("checkpoint-qa-feedback")).toBeChecked();

  const session = await startTask(page, "run `ls` and then run `pwd` (qa-fail)");
  await expectRunStatus(page, "VERIFIED");
  const delivery = page.getByTestId("session-bar").getByTestId("delivery-state");
  await expect(delivery).toHaveAttribute("data-state", "DONE");
  await expect(delivery).toHaveAttribute("title", /reported by verification; final/);

  const first = child(page, 0);
  await expect(first).toHaveAttribute("data-status", "VERIFIED");
  const reports = first.getByTestId("qa-reports");
  await expect(reports).toHaveAttribute("data-verdict", "fail");
  // Closed until the person opens it; the summary is a control with an accessible name.
  await expect(reports.getByTestId("qa-summary")).toBeHidden();
  await reports.locator("summary").click();
  await expect(reports.getByTestId("qa-summary")).toHaveText(
    "The fake reviewer fails work marked (qa-fail).",
  );
  const finding = reports.getByTestId("qa-finding");
  await expect(finding).toHaveAttribute("data-severity", "high");
  await expect(finding).toContainText("README.md");
  await expect(finding).toContainText("the change is not what the reviewer wanted");
  await expect(finding).toContainText("suggestion: write the README's usage section first");
  await expect(reports.getByTestId("qa-report")).toContainText(
    "read-only tools: fs.read, fs.list, fs.search",
  );
  await expect(reports.getByTestId("qa-report")).toContainText("read git.diff");
  // The root and the second child were reviewed too, and stayed VERIFIED.
  await expect(page.getByTestId("qa-reports")).toHaveCount(3);
  await expect(child(page, 1)).toHaveAttribute("data-status", "VERIFIED");

  // The replay folds the same events: the same report and the same delivery state.
  await page.goto(`${session}/replay`);
  await expect(page.getByTestId("replay-position")).toContainText(/event (\d+) of \1/);
  await expect(page.getByTestId("delivery-state")).toHaveAttribute("data-state", "DONE");
  await expect(page.getByTestId("qa-reports")).toHaveCount(3);
  await expect(child(page, 0).getByTestId("qa-reports")).toHaveAttribute("data-verdict", "fail");
});

test("the model's delivery check shows next to the delivery state: its NEEDS_WORK cannot undo a verified DONE", async ({
  page,
}) => {
  await signUp(page, newUser("deliverer"));
  await createProject(page, "Delivered");
  // The fake model's delivery check asks for more whenever the request is marked (delivery-needs-work).
  const session = await startTask(page, "run `ls` (delivery-needs-work)");
  await expectRunStatus(page, "VERIFIED");
  const bar = page.getByTestId("session-bar");
  await expect(bar.getByTestId("delivery-state")).toHaveAttribute("data-state", "DONE");
  await expect(bar.getByTestId("delivery-state")).toHaveAttribute("title", /reported by verification; final/);
  const check = bar.getByTestId("delivery-check");
  await expect(check).toHaveAttribute("data-state", "NEEDS_WORK");
  await expect(check).toContainText("check: NEEDS_WORK");
  await expect(check.getByTestId("delivery-missing")).toHaveText(
    " · missing: a CHANGELOG entry for the change",
  );
  await expect(check).toHaveAttribute(
    "title",
    /^Delivery check \(openai-compatible:.*\): NEEDS_WORK\. The fake delivery check wants more/,
  );

  // The replay folds the same events: the same verdict next to the same gate.
  await page.goto(`${session}/replay`);
  await expect(page.getByTestId("replay-position")).toContainText(/event (\d+) of \1/);
  await expect(page.getByTestId("delivery-state")).toHaveAttribute("data-state", "DONE");
  await expect(page.getByTestId("delivery-check")).toHaveAttribute("data-state", "NEEDS_WORK");
});
