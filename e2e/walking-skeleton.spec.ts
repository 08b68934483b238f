import { expect, test } from "@playwright/test";
import {
  child,
  createProject,
  expectRunStatus,
  intentions,
  newUser,
  signUp,
  startTask,
  treeSnapshot,
} from "../testing/e2e/arbor";
import { FAKE_MODEL_PORT } from "../testing/e2e/ports";

/**
 * The six steps of the walking skeleton, in real Chromium against the production build, a real
 * Docker sandbox and the fake OpenAI-compatible model server.
 */
test("a new user signs up, gives a task, approves its decomposition and watches it verified in a sandbox", async ({
  page,
}) => {
  const user = newUser("ada");
  await signUp(page, user);
  await expect(page.getByTestId("projects-empty")).toBeVisible();
  // The model is named with its provider, never the server's address (issue #16.10).
  await expect(page.getByTestId("model-label")).toContainText("gpt-4o-mini (OpenAI-compatible)");
  await expect(page.getByTestId("model-label")).not.toContainText(`127.0.0.1:${FAKE_MODEL_PORT}`);

  await createProject(page, "Skeleton demo");
  // `/etc/arbor-sandbox` exists only in the sandbox image, and the host runs as root, not `arbor`.
  await startTask(
    page,
    "run `cat /etc/arbor-sandbox` and then run `id -un && pwd && git branch --show-current`",
  );

  const card = page.getByTestId("approval-card");
  await expect(card).toBeVisible();
  await expect(card.getByTestId("proposed-child")).toHaveCount(2);
  await expect(page.getByTestId("message-user")).toContainText("cat /etc/arbor-sandbox");

  // A marker on the window proves the page is never reloaded while the tree updates.
  await page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
  await card.getByTestId("approve").click();
  await expect(card).toBeHidden();

  await expectRunStatus(page, "VERIFIED");
  await expect(intentions(page)).toHaveCount(3);
  await expect(child(page, 0).getByTestId("intention-status").first()).toHaveAttribute(
    "data-status",
    "VERIFIED",
  );
  await expect(child(page, 1).getByTestId("intention-status").first()).toHaveAttribute(
    "data-status",
    "VERIFIED",
  );
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

  const first = child(page, 0).getByTestId("cycle");
  await first.locator("summary").click();
  await expect(first.getByTestId("cycle-output")).toContainText("arbor-sandbox");
  await expect(first.getByTestId("cycle-judgment")).toHaveAttribute("data-status", "SUCCESS");
  const second = child(page, 1).getByTestId("cycle");
  await second.locator("summary").click();
  await expect(second.getByTestId("cycle-output")).toContainText("arbor\n/workspace\narbor/session-");
  await expect(page.getByTestId("message-agent")).toContainText("Verified");

  const before = await treeSnapshot(page);
  await page.reload();
  await expectRunStatus(page, "VERIFIED");
  await expect(intentions(page)).toHaveCount(3);
  expect(await treeSnapshot(page)).toEqual(before);
});

test("a failing command fails its intention and the run, with the reason shown", async ({ page }) => {
  await signUp(page, newUser("grace"));
  await createProject(page, "Failure demo");
  await startTask(page, "run `echo starting; exit 3` and then run `echo never reached`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "FAILED");
  // Simple mode failed twice and the step cannot be split, so full mode had its turn; its first cycle
  // failed exactly like the two before it, so the stall rule names the repetition and it gives up.
  await expect(page.getByTestId("run-reason")).toContainText(
    'child 1 "run `echo starting; exit 3`" failed: tier full: stalled: `echo starting; exit 3` gave the same FAILURE result 3 times: exit code 3',
  );
  await expect(child(page, 0).getByTestId("intention-escalation").first()).toContainText(
    "tier simple: 2 failed cycles",
  );
  await expect(child(page, 0).getByTestId("intention-status").first()).toHaveAttribute(
    "data-status",
    "FAILED",
  );
  await expect(child(page, 0).getByTestId("cycle-output").first()).toContainText("starting");
  await expect(child(page, 1).getByTestId("intention-status").first()).toHaveAttribute(
    "data-status",
    "PENDING",
  );
  // Issue #17.4: it never started, and says so (stored PENDING, shown NOT STARTED).
  await expect(child(page, 1).getByTestId("intention-status").first()).toHaveText("NOT STARTED");
  await expect(page.locator('[data-testid="intention"][data-status="ACTIVE"]')).toHaveCount(0);
});

test("rejecting a decomposition ends the run with the reason", async ({ page }) => {
  const user = newUser("linus");
  await signUp(page, user);
  await createProject(page, "Reject demo");
  await startTask(page, "run `ls` and then run `pwd`");
  await page.getByTestId("reject").click();
  await page.getByTestId("reject-reason").fill("not what I meant");
  await page.getByTestId("confirm-reject").click();
  await expectRunStatus(page, "FAILED");
  await expect(page.getByTestId("run-reason")).toHaveText(
    `Decomposition rejected by ${user.name}: not what I meant`,
  );
  await expect(page.getByTestId("approval-card")).toHaveCount(0);
});

test("updates arrive live while the run is still going", async ({ page }) => {
  await signUp(page, newUser("live"));
  await createProject(page, "Live demo");
  await startTask(page, "run `echo first` and then run `sleep 4 && echo second`");
  await page.getByTestId("approve").click();
  // Seen before the run ends: the first child verified while the second still runs.
  await expect(child(page, 0).getByTestId("intention-status").first()).toHaveAttribute(
    "data-status",
    "VERIFIED",
  );
  await expect(child(page, 1).getByTestId("intention-status").first()).toHaveAttribute(
    "data-status",
    "ACTIVE",
  );
  await expectRunStatus(page, "RUNNING");
  await expectRunStatus(page, "VERIFIED");
});

test("a person edits, removes and adds children before approving, and the edited plan is what runs", async ({
  page,
}) => {
  await signUp(page, newUser("planner"));
  await createProject(page, "Edited plan");
  await startTask(page, "run `echo first` and then run `echo second`");
  const card = page.getByTestId("approval-card");
  await expect(card.getByTestId("child-what")).toHaveCount(2);
  await expect(card.getByTestId("child-what").nth(0)).toHaveValue("run `echo first`");
  await card.getByTestId("child-what").nth(1).fill("run `echo edited`");
  // Issue #15: the check goes with the edit (left as `echo second`, it would be green before any work
  // and prove nothing about `echo edited`); the card lists the check it will run.
  await card.getByTestId("child-acceptance").nth(1).fill("the command `echo edited` exits 0");
  await expect(card.getByTestId("child-checks").nth(1)).toContainText("echo edited");
  await card.getByTestId("child-add").click();
  await card.getByTestId("child-what").nth(2).fill("run `echo added`");
  await card.getByTestId("child-remove").nth(0).click();
  await expect(card.getByTestId("child-what")).toHaveCount(2);
  await card.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expect(intentions(page)).toHaveCount(3);
  await expect(child(page, 0).getByTestId("cycle-output")).toContainText("edited");
  await expect(child(page, 1).getByTestId("cycle-output")).toContainText("added");
});
