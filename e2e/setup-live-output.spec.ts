import { expect, test } from "@playwright/test";
import { createProject, newUser, openProjectSettings, signUp, startTask } from "../testing/e2e/arbor";
import { SPARE_APP_PORT } from "../testing/e2e/ports";
import { projectWithSetupInConfig } from "../testing/e2e/sandbox-projects";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

/**
 * The project's setup command, named by the repository's `.arbor/config.yaml` on main and approved
 * once on the project page, runs when a new session's workspace is made: its output reaches the session
 * page while it still runs (live lines on the Network and setup card), then the stored output takes
 * their place.
 */
let server: ArborServer | null = null;
test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test("the setup command's output arrives on the session page while it runs", async ({ page }, testInfo) => {
  server = await startArborServer({ port: SPARE_APP_PORT, dataDir: ".e2e/setup-live", modelUrl: "" });
  await signUp(page, newUser("setup"));
  const command = "echo setup first; sleep 6; echo setup second";
  await createProject(page, "Setup live", `file://${projectWithSetupInConfig(command)}`);
  await openProjectSettings(page);
  // Proposed by the file on main, not yet approved; the card's own command beats it until cleared.
  await expect(page.getByTestId("setup-command")).toContainText(command);
  await expect(page.getByTestId("setup-source")).toHaveText("(from .arbor/config.yaml on main)");
  await expect(page.getByTestId("setup-approval")).toContainText("Not approved yet");
  const fromFile = page.getByTestId("repo-config-setup.command");
  await expect(fromFile).toContainText(`${command} (not approved yet`);
  await page.getByTestId("setup-command-input").fill("echo own");
  await page.getByTestId("setup-command-save").click();
  await expect(page.getByTestId("setup-source")).toContainText("Network and setup card");
  await expect(page.getByTestId("setup-repo-overridden")).toContainText(command);
  await page.getByTestId("setup-command-input").fill("");
  await page.getByTestId("setup-command-save").click();
  await expect(page.getByTestId("setup-source")).toHaveText("(from .arbor/config.yaml on main)");
  await page.getByTestId("setup-approve").click();
  await expect(page.getByTestId("setup-approval")).toContainText("Approved");
  await expect(fromFile).toContainText(`${command} (approved)`);

  await startTask(page, "run `ls`");
  const running = page.getByTestId("environment-setup-running");
  const live = running.getByTestId("cycle-live-output");
  // The first line while the command still sleeps: no outcome is stored yet.
  await expect(live).toContainText("setup first", { timeout: 60_000 });
  await expect(live).not.toContainText("setup second");
  await expect(page.getByTestId("environment-setup")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("setup-live.png"), fullPage: true });

  // When it ends, the stored output replaces the live lines.
  const stored = page.getByTestId("environment-setup");
  await expect(stored).toContainText("done in", { timeout: 60_000 });
  await expect(running).toHaveCount(0);
  await stored.locator("summary").click();
  await expect(stored.locator("pre")).toHaveText("setup first\nsetup second\n");
  await page
    .getByTestId("stop-run")
    .click({ timeout: 5_000 })
    .catch(() => undefined);
});
