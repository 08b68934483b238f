import { expect, test } from "@playwright/test";
import {
  child,
  createProject,
  expectRunStatus,
  intentions,
  newUser,
  openProjectSettings,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/** Commands wait for a click unless they only read; the person may edit or reject them; the project decides. */

test("a command that writes waits for approval, and the person's edit is what runs", async ({ page }) => {
  await signUp(page, newUser("editor"));
  await createProject(page, "Command edit");
  await startTask(page, "run `touch made.txt` and then run `ls`");
  await page.getByTestId("approve").click();

  const card = page.locator('[data-testid="approval-card"][data-kind="command"]');
  await expect(card.getByTestId("command-input")).toHaveValue("touch made.txt");
  await expect(card.getByTestId("gate-reason")).toContainText("touch made.txt");
  await card.getByTestId("command-input").fill("touch edited.txt");
  await expect(card.getByTestId("approve")).toHaveText("Run edited command");
  await card.getByTestId("approve").click();

  await expect(child(page, 0).getByTestId("cycle").first().locator("summary")).toContainText(
    "touch edited.txt",
  );
  // Issue #15: the edit does not inherit the check. "run `touch made.txt`" is checked by exactly that
  // command, which the approved decomposition card listed ("these checks will run without asking"): the
  // check runs itself, and that is what verifies the child (ran as requested), not the edit.
  await expectRunStatus(page, "VERIFIED");
  await expect(child(page, 0).getByTestId("intention-evidence")).toHaveAttribute(
    "data-evidence",
    "ran-as-requested",
  );
  const listing = child(page, 1).getByTestId("cycle-output");
  await expect(listing).toContainText("edited.txt");
  await expect(listing).toContainText("made.txt");
});

test("a rejected command is skipped and not asked again unchanged: the node fails with who and why", async ({
  page,
}) => {
  const user = newUser("rejecter");
  await signUp(page, user);
  await createProject(page, "Command reject");
  await startTask(page, "run `touch once.txt`");
  const card = page.locator('[data-testid="approval-card"][data-kind="command"]');
  await card.getByTestId("reject").click();
  await card.getByTestId("reject-reason").fill("not yet");
  await card.getByTestId("confirm-reject").click();
  // Issue #17.4: the model proposes the same command again; it is not asked about again.
  await expectRunStatus(page, "FAILED");
  await expect(page.getByTestId("cycle")).toHaveCount(1);
  await expect(page.getByTestId("approval-card")).toHaveCount(0);
  await expect(page.getByTestId("cycle-judgment").first()).toHaveAttribute("data-status", "FAILURE");
  await expect(intentions(page).first().getByTestId("intention-reason")).toContainText(
    `${user.name} rejected \`touch once.txt\` (not yet), and the model proposed it again unchanged`,
  );
});

test("a project set to never ask runs unlisted commands without a click", async ({ page }) => {
  await signUp(page, newUser("trusting"));
  await createProject(page, "Trusting");
  await openProjectSettings(page);
  await page.getByTestId("checkpoint-commands").selectOption("never-ask");
  await page.getByTestId("checkpoint-decompositions").selectOption("auto");
  await page.getByTestId("save-checkpoints").click();
  await expect(page.getByTestId("checkpoints-saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("checkpoint-commands")).toHaveValue("never-ask");

  await startTask(page, "run `touch free.txt` and then run `ls free.txt`");
  await expectRunStatus(page, "VERIFIED");
  await expect(page.getByTestId("approval-card")).toHaveCount(0);
  await expect(child(page, 1).getByTestId("cycle-output")).toContainText("free.txt");
});

test("the waiting count shows, and the keyboard answers: R opens the rejection, A approves", async ({
  page,
}) => {
  await signUp(page, newUser("keys"));
  await createProject(page, "Keyboard");
  await startTask(page, "run `echo one` and then run `echo two`");
  await expect(page.getByTestId("approvals-count")).toHaveText("1 waiting for you");
  // Shortcuts work when nothing that takes typing has the focus.
  const blur = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await blur();
  await page.keyboard.press("r");
  await expect(page.getByTestId("reject-reason")).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await blur();
  await page.keyboard.press("a");
  await expectRunStatus(page, "VERIFIED");
  await expect(page.getByTestId("approvals-count")).toHaveCount(0);
});
