import { expect, test } from "@playwright/test";
import { createProject, newUser, signUp, startTask } from "../testing/e2e/arbor";
import { SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

/**
 * Issue #15: a step that succeeded but has no check is "not verified"; a member may accept it as
 * verified with a reason, and the node then says so with their name (the run keeps its outcome).
 */
// The built-in offline model: it reads ``delete `README.md` `` as exactly that file deletion.
let server: ArborServer | null = null;
test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test("a member accepts an unchecked step as verified, with a reason kept under their name", async ({
  page,
}, testInfo) => {
  server = await startArborServer({ port: SPARE_APP_PORT, dataDir: ".e2e/accept", modelUrl: "" });
  const user = newUser("accept");
  await signUp(page, user);
  await createProject(page, "Accept a step");
  await startTask(page, "delete `README.md`");
  const status = page.getByTestId("run-status");
  // Approve what the run asks (the delete) until it ends.
  await expect(async () => {
    const approve = page.getByTestId("approve").first();
    if (await approve.isVisible()) await approve.click();
    expect(await status.getAttribute("data-status")).not.toBe("RUNNING");
  }).toPass({ timeout: 90_000, intervals: [1_000] });
  await expect(status).toHaveAttribute("data-status", "FAILED");

  const form = page.getByTestId("accept-node");
  await expect(form).toBeVisible();
  await expect(page.getByTestId("accept-as-verified")).toBeDisabled();
  await page.getByTestId("accept-reason").fill("I checked the file list myself: README.md is gone.");
  await page.getByTestId("accept-as-verified").click();
  const evidence = page.getByTestId("intention-evidence").first();
  await expect(evidence).toHaveAttribute("data-evidence", "accepted-by-person");
  await expect(evidence).toContainText(user.name);
  await expect(form).toHaveCount(0);
  // The run's own outcome is what happened; only the node carries the person's acceptance.
  await expect(status).toHaveAttribute("data-status", "FAILED");
  await page.screenshot({ path: testInfo.outputPath("accepted-node.png"), fullPage: true });
});
