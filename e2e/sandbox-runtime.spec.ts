import { expect, test } from "@playwright/test";
import {
  createProject,
  expectRunStatus,
  newUser,
  openProjectSettings,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/** A project chooses gVisor for its sandboxes; its session runs there, offline, and says so. */
test("a project set to gVisor runs its session under gVisor and shows the runtime", async ({ page }) => {
  await signUp(page, newUser("gvisor"));
  await createProject(page, "Untrusted code");
  await openProjectSettings(page);
  const card = page.getByTestId("sandbox-settings");
  await expect(card).toContainText("A gVisor session is offline");
  await expect(card.getByTestId("sandbox-image")).toContainText("the server's image");
  await card.getByTestId("sandbox-runtime").selectOption("runsc");
  await page.reload();
  await expect(page.getByTestId("sandbox-runtime")).toHaveValue("runsc");

  await startTask(page, "run `uname -r`");
  await expectRunStatus(page, "VERIFIED");
  const badge = page.getByTestId("sandbox-runtime-badge");
  await expect(badge).toHaveAttribute("data-runtime", "runsc");
  await expect(badge).toHaveText("gVisor · offline");
  // gVisor's own kernel answers, not the host's.
  await expect(page.getByTestId("cycle-output").first()).toContainText("4.4.0");
});
