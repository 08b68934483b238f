import { expect, test } from "@playwright/test";
import {
  approvalCard,
  child,
  createProject,
  expectRunStatus,
  intentions,
  newUser,
  openProjectSettings,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/** A write waits for a click on its diff; the person may rewrite the new content; what lands is what they approved. */

test("a write shows its diff, the person edits the new content, and the edited content lands", async ({
  page,
}) => {
  await signUp(page, newUser("writer"));
  await createProject(page, "Write approval");
  await startTask(page, "create `notes.txt` containing `hello` and then run `cat notes.txt`");
  await approvalCard(page, "decomposition").getByTestId("approve").click();

  const card = approvalCard(page, "tool");
  await expect(card.getByRole("heading")).toHaveText("Write this file?");
  await expect(card.getByTestId("tool-path")).toHaveText("notes.txt");
  await expect(card.getByTestId("merge-diff")).toContainText("Before (new file)");
  const after = card.getByTestId("diff-after");
  await expect(after).toHaveText("hello");

  // The person rewrites the new content in the right-hand editor before approving.
  await after.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("hello from a person");
  await expect(card.getByTestId("approve")).toHaveText("Approve edited");
  await card.getByTestId("approve").click();

  await expectRunStatus(page, "VERIFIED");
  const write = child(page, 0).getByTestId("cycle");
  await expect(write.getByTestId("cycle-action")).toHaveText("CREATE fs.write notes.txt");
  await expect(write.getByTestId("cycle-reads")).toContainText("fs.read notes.txt");
  await expect(write.getByTestId("cycle-judged-by")).toContainText(
    "fs.write succeeded and all 1 contract criteria hold",
  );
  // The next step reads the file in the sandbox: the person's content, not the model's.
  await expect(child(page, 1).getByTestId("cycle-output")).toHaveText("hello from a person");
});

test("a rejected write is skipped and not asked again unchanged; A approves the next task's write", async ({
  page,
}) => {
  const user = newUser("skipper");
  await signUp(page, user);
  await createProject(page, "Write reject");
  await startTask(page, "create `a.txt` containing `one`");

  const card = approvalCard(page, "tool");
  await card.getByTestId("reject").click();
  await card.getByTestId("reject-reason").fill("not yet");
  await card.getByTestId("confirm-reject").click();
  await expect(page.getByTestId("cycle")).toHaveCount(1);
  await expect(page.getByTestId("cycle-judged-by").first()).toContainText(
    "rejected the fs.write call: not yet",
  );
  // Issue #17.4: the same write proposed again is not asked about again; the node says why.
  await expectRunStatus(page, "FAILED");
  await expect(approvalCard(page, "tool")).toHaveCount(0);
  await expect(intentions(page).first().getByTestId("intention-reason")).toContainText(
    `${user.name} rejected the fs.write call (not yet), and the model proposed it again unchanged`,
  );

  // A new task is a new intention: its write asks, and A approves it from the keyboard.
  await page.getByTestId("task-input").fill("create `a.txt` containing `one`");
  await page.getByTestId("task-submit").click();
  await expect(approvalCard(page, "tool").getByTestId("diff-after")).toHaveText("one");
  await approvalCard(page, "tool").getByRole("heading").click();
  await page.keyboard.press("a");
  await expectRunStatus(page, "VERIFIED");
  await expect(page.getByTestId("cycle-judgment").first()).toHaveAttribute("data-status", "SUCCESS");
});

test("abort on a write's card ends the run", async ({ page }) => {
  await signUp(page, newUser("aborter"));
  await createProject(page, "Write abort");
  await startTask(page, "create `b.txt` containing `two`");
  const card = approvalCard(page, "tool");
  await card.getByTestId("reject").click();
  await card.getByTestId("abort-run").click();
  await expectRunStatus(page, "STOPPED");
});

test("a project that pre-approves file changes writes without a card, and the box stays ticked", async ({
  page,
}) => {
  await signUp(page, newUser("preapprover"));
  await createProject(page, "Write pre-approved");
  await openProjectSettings(page);
  await page.getByTestId("preapprove-write").check();
  await page.getByTestId("save-checkpoints").click();
  await expect(page.getByTestId("checkpoints-saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("preapprove-write")).toBeChecked();
  await expect(page.getByTestId("preapprove-git-write")).not.toBeChecked();

  await startTask(page, "create `c.txt` containing `three`");
  await expectRunStatus(page, "VERIFIED");
  await expect(approvalCard(page, "tool")).toHaveCount(0);
  await expect(page.getByTestId("cycle-gate").first()).toContainText("write tools are pre-approved");
});
