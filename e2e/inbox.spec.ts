import { expect, test } from "@playwright/test";
import { createProject, expectRunStatus, newUser, signUp, startTask } from "../testing/e2e/arbor";

type Noted = { title: string; body: string | undefined };

test("the inbox counts what waits, and the browser notifies a person on another page", async ({
  context,
  page,
}) => {
  await context.grantPermissions(["notifications"]);
  // The real Notification, wrapped so the test can read what was shown.
  await context.addInitScript(() => {
    const Real = window.Notification;
    const shown: { title: string; body: string | undefined }[] = [];
    (window as unknown as { __notified: typeof shown }).__notified = shown;
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push({ title, body: options?.body });
      }
    };
  });

  await signUp(page, newUser("ines"));
  await createProject(page, "Inbox demo");

  const inbox = await context.newPage();
  await inbox.goto("/inbox");
  await expect(inbox.getByTestId("inbox-empty")).toBeVisible();
  await expect(inbox.getByTestId("notifications-on")).toBeVisible();
  await expect(inbox.getByTestId("inbox-count")).toHaveCount(0);

  await startTask(page, "run `echo one` and then run `echo two`");
  await expect(page.getByTestId("approval-card")).toBeVisible();

  await expect(inbox.getByTestId("inbox-count")).toHaveText("1");
  await expect(inbox.getByTestId("inbox-item")).toHaveCount(1);
  await expect(inbox.getByTestId("inbox-item")).toContainText("Inbox demo");
  await expect(inbox.getByTestId("inbox-item")).toContainText("decomposition");
  await expect
    .poll(() => inbox.evaluate(() => (window as unknown as { __notified: Noted[] }).__notified))
    .toEqual([
      {
        title: "A decomposition waits for your approval",
        body: "Inbox demo: run `echo one` and then run `echo two`",
      },
    ]);
  // The page showing the session itself is not interrupted.
  expect(await page.evaluate(() => (window as unknown as { __notified: Noted[] }).__notified)).toEqual([]);

  await page.getByTestId("approve").click();
  await expect(inbox.getByTestId("inbox-empty")).toBeVisible();
  await expect(inbox.getByTestId("inbox-count")).toHaveCount(0);
  await expectRunStatus(page, "VERIFIED");

  await inbox.getByTestId("nav-inbox").click();
  await expect(inbox.getByRole("link", { name: "Approvals inbox, nothing waiting" })).toBeVisible();
});
