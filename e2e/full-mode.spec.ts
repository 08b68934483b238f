import { expect, test } from "@playwright/test";
import {
  approvalCard,
  createProject,
  expectRunStatus,
  newUser,
  signUp,
  startTask,
} from "../testing/e2e/arbor";
import { FAKE_MODEL_PORT, SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

/**
 * Full mode (seed 002) from the browser, on a server whose runs skip simple mode
 * (ARBOR_FULL_MODE=always): the Librarian's ranked files and the Critic's review show on the node; a
 * change the Critic sends back fails its cycle without an approval card.
 */
let server: ArborServer | null = null;
test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
test.beforeEach(async () => {
  server = await startArborServer({
    port: SPARE_APP_PORT,
    dataDir: ".e2e/full-mode",
    modelUrl: `http://127.0.0.1:${FAKE_MODEL_PORT}/v1`,
    env: { ARBOR_FULL_MODE: "always" },
  });
});
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

const root = (page: import("@playwright/test").Page) =>
  page.locator('[data-testid="intention"][data-depth="0"]');

test("the Librarian ranks, the Critic approves, then the person approves the write", async ({ page }) => {
  await signUp(page, newUser("artisan"));
  await createProject(page, "Full mode");
  await startTask(page, "create `README.md` containing `hello from full mode`");
  const card = approvalCard(page, "tool");
  await expect(card.getByTestId("diff-after")).toHaveText("hello from full mode");
  // The Critic spoke before the card was shown.
  await expect(root(page).getByTestId("role-critic")).toHaveAttribute("data-verdict", "approve");
  await expect(root(page).getByTestId("role-librarian")).toContainText("README.md (read for the Artisan)");
  await card.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expect(root(page).getByTestId("intention-tier")).toHaveAttribute("data-mode", "full");
  // The replay folds the same reports from the log.
  await page.reload();
  await expect(root(page).getByTestId("role-critic")).toHaveAttribute("data-verdict", "approve");
});

test("a change the Critic sends back fails its cycle and never reaches an approval card", async ({
  page,
}) => {
  await signUp(page, newUser("critic"));
  await createProject(page, "Critic says no");
  await startTask(page, "create `a.txt` containing `one` (critic-revise)");
  await expectRunStatus(page, "FAILED");
  const reviews = root(page).getByTestId("role-critic");
  await expect(reviews.first()).toHaveAttribute("data-verdict", "revise");
  await expect(reviews.first()).toContainText("sent the change back");
  await expect(page.getByTestId("cycle-judged-by").first()).toContainText("the Critic asked for a revision");
  await expect(approvalCard(page, "tool")).toHaveCount(0);
});
