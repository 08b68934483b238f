import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import {
  approvalCard,
  child,
  createProject,
  expectRunStatus,
  newUser,
  signUp,
  startTask,
} from "../testing/e2e/arbor";
import { FAKE_MODEL_PORT, SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

/** Prices and a run budget from a model config file: spend is shown live, and a spent budget asks a person. */
let server: ArborServer | null = null;
test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
// Each spec starts its own server and grants a budget dozens of times: on a loaded machine that takes
// more than the default two minutes.
test.setTimeout(240_000);
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

/** `maxCostUsd`: the run's budget; one call costs about $0.36 at the steep price below. */
async function startPricedServer(maxCostUsd = 0.05) {
  const dir = path.resolve(".e2e/budget-config");
  mkdirSync(dir, { recursive: true });
  const config = path.join(dir, "model.yaml");
  writeFileSync(
    config,
    [
      "escalation: escalate-then-decompose",
      `budgets: { maxCostUsd: ${maxCostUsd}, maxTokens: 10000000, maxIterations: 40 }`,
      "tiers:",
      "  - { name: only, provider: openai-compatible, model: gpt-4o-mini, maxIterations: 5, maxCostUsd: 1, maxTokens: 1000000 }",
      // A deliberately steep price, so one call spends the whole budget.
      "prices:",
      "  gpt-4o-mini: { inputPer1M: 1000, outputPer1M: 1000 }",
    ].join("\n"),
  );
  server = await startArborServer({
    port: SPARE_APP_PORT,
    dataDir: ".e2e/budget",
    modelUrl: `http://127.0.0.1:${FAKE_MODEL_PORT}/v1`,
    env: { ARBOR_MODEL_CONFIG: config },
  });
}

/**
 * Approves the questions of these kinds as they come, until `target` shows. The run's first model
 * calls (reading the request, the root's checks) may spend the budget before the decomposition is
 * proposed, so the order of the questions is not fixed.
 */
async function approveUntil(page: Page, target: Locator, kinds: string[]) {
  const selector = kinds.map((kind) => `[data-testid="approval-card"][data-kind="${kind}"]`).join(", ");
  for (let i = 0; i < 100 && !(await target.isVisible()); i++) {
    const card = page.locator(selector).first();
    if (await card.isVisible()) await card.getByTestId("approve").click();
    await page.waitForTimeout(200);
  }
  await expect(target).toBeVisible();
}

test("a spent budget pauses the run until a person grants more, and the cost is shown live", async ({
  page,
}) => {
  await startPricedServer();
  await signUp(page, newUser("payer"));
  await createProject(page, "Budget");
  await startTask(page, "run `echo one` and then run `echo two`");
  const budgetCard = page.locator('[data-testid="approval-card"][data-kind="budget"]');
  await expect(budgetCard.getByTestId("budget-question")).toContainText("The run has spent $");
  await expect(page.getByTestId("run-cost")).toContainText(/model calls · [\d,]+ tokens · \$0\.\d+/);
  let grants = 0;
  while ((await page.getByTestId("run-status").getAttribute("data-status")) === "RUNNING" && grants < 80) {
    // The run's budget, or a child's share of it (grant more answers both the same way), and the
    // decomposition whenever it is proposed.
    const card = page.locator('[data-testid="approval-card"]').first();
    if (await card.isVisible()) {
      const kind = (await card.getAttribute("data-kind")) ?? "";
      await card.getByTestId("approve").click();
      if (kind.endsWith("budget")) grants += 1;
    }
    await page.waitForTimeout(200);
  }
  await expectRunStatus(page, "VERIFIED");
  expect(grants).toBeGreaterThanOrEqual(1);
});

test("declining to grant more stops the run with the reason", async ({ page }) => {
  await startPricedServer();
  const user = newUser("saver");
  await signUp(page, user);
  await createProject(page, "Budget stop");
  await startTask(page, "run `echo one` and then run `echo two`");
  const card = page.locator('[data-testid="approval-card"][data-kind="budget"]');
  await approveUntil(page, card, ["decomposition"]);
  await card.getByTestId("reject").click();
  await card.getByTestId("confirm-reject").click();
  await expectRunStatus(page, "STOPPED");
  await expect(page.getByTestId("run-reason")).toHaveText(`budget: stopped by ${user.name}`);
});

test("a child that spent its share of the budget asks on its own; stopping it fails it, and its parent by failure propagation", async ({
  page,
}) => {
  // Room for the decomposition call, then a small share for each child.
  await startPricedServer(0.5);
  const user = newUser("splitter");
  await signUp(page, user);
  await createProject(page, "Budget split");
  // The first child fails, so it needs a second model call after spending its (empty) share.
  await startTask(page, "run `false` and then run `echo two`");
  const share = approvalCard(page, "intention-budget");
  await approveUntil(page, share, ["decomposition", "budget"]);
  await expect(share).toContainText("For: run `false`");
  await expect(share.getByTestId("budget-question")).toContainText("Spent $");
  await expect(share.getByTestId("budget-decompose")).toBeVisible();
  await share.getByTestId("verdict-reason").fill("not worth more");
  await share.getByTestId("budget-stop").click();

  await expectRunStatus(page, "FAILED");
  await expect(child(page, 0).getByTestId("intention-reason").first()).toHaveText(
    `budget: stopped by ${user.name}: not worth more`,
  );
  await expect(page.getByTestId("run-reason")).toContainText(
    `budget: stopped by ${user.name}: not worth more`,
  );
});
