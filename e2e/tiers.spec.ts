import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createProject, expectRunStatus, newUser, signUp, startTask } from "../testing/e2e/arbor";
import { FAKE_MODEL_PORT, SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

/**
 * Model tiers from ARBOR_MODEL_CONFIG: the fake server's weak-… models fail at "(hard)" intentions,
 * so the intention climbs from tier "fast" to tier "strong", and its node says which tier it is on.
 */
let server: ArborServer | null = null;
test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test("an intention that fails on tier 0 escalates, and the node shows the tier it is on", async ({
  page,
}) => {
  const dir = path.resolve(".e2e/tiers-config");
  mkdirSync(dir, { recursive: true });
  const config = path.join(dir, "model.yaml");
  writeFileSync(
    config,
    [
      "escalation: escalate-then-decompose",
      "budgets: { maxCostUsd: 10, maxTokens: 10000000, maxIterations: 40 }",
      "tiers:",
      "  - { name: fast, provider: openai-compatible, model: weak-fast, maxIterations: 3, maxCostUsd: 1, maxTokens: 1000000 }",
      "  - { name: strong, provider: openai-compatible, model: strong-model, maxIterations: 3, maxCostUsd: 1, maxTokens: 1000000 }",
      "prices:",
      "  weak-fast: { inputPer1M: 0.1, outputPer1M: 0.1 }",
      "  strong-model: { inputPer1M: 1, outputPer1M: 1 }",
    ].join("\n"),
  );
  server = await startArborServer({
    port: SPARE_APP_PORT,
    dataDir: ".e2e/tiers",
    modelUrl: `http://127.0.0.1:${FAKE_MODEL_PORT}/v1`,
    env: { ARBOR_MODEL_CONFIG: config },
  });
  await signUp(page, newUser("climber"));
  await createProject(page, "Tiers");
  await startTask(page, "run `ls README.md` (hard)");
  await expectRunStatus(page, "VERIFIED");
  const root = page.locator('[data-testid="intention"][data-depth="0"]');
  await expect(root.getByTestId("intention-tier")).toHaveText("tier strong");
  await expect(root.getByTestId("intention-tier")).toHaveAttribute("data-tier", "1");
  await expect(root.getByTestId("intention-tier")).toHaveAttribute("title", /strong-model/);
  await expect(root.getByTestId("intention-escalation")).toContainText("tier fast: 2 failed cycles");
  // The replay rebuilds the same tier from the log.
  await page.reload();
  await expect(root.getByTestId("intention-tier")).toHaveText("tier strong");
});
