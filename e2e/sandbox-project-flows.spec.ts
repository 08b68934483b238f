import { expect, type Locator, type Page, test } from "@playwright/test";
import { child, createProject, newUser, openProjectSettings, signUp, startTask } from "../testing/e2e/arbor";
import { SPARE_APP_PORT } from "../testing/e2e/ports";
import {
  NODE_DEPENDENCY_FAILING_TEST,
  nodeProjectWithDependency,
  PYTHON_FAILING_TEST,
  pythonProject,
} from "../testing/e2e/sandbox-projects";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

/**
 * The flows a new user tries first (issue #14), on the built-in offline model in the real sandbox
 * image: a Node project with a real dependency from the npm registry (`npm ci`, then `npm test`) and a
 * Python project (`python3 -m pytest`). The dependency is installed the way the product does it: the
 * lock file makes `npm ci` the setup command, a person approves it once, it runs in the setup phase
 * through the egress proxy ("Package registries only"), and the agent phase (Off) installs again from
 * the project's cache volume. Output arrives while the test command runs; the node's result names the
 * failing test.
 */
let server: ArborServer | null = null;
test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook uses from this pattern.
test.afterEach(async ({}, testInfo) => {
  if (server && testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach("server-output", { body: server.output(), contentType: "text/plain" });
  await server?.stop();
  server = null;
});

/** Its own egress proxy port, above the other servers' (several checkouts run suites at once). */
const EGRESS_PORT = String(3129 + 40 + Number(process.env.ARBOR_E2E_PORT_OFFSET ?? 0));

/** Approves whatever asks (the decomposition, a command) until `done` holds. */
async function approveUntil(page: Page, done: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("timed out approving until the condition held");
    const approve = page.locator('[data-testid="approve"]:visible').first();
    if (await approve.isVisible().catch(() => false)) await approve.click({ timeout: 2_000 }).catch(() => {});
    await page.waitForTimeout(200);
  }
}

/** The step's live lines grow while its command runs, before any stored result exists. */
async function expectLiveWhileRunning(step: Locator, earlyLine: RegExp, laterLine: RegExp) {
  const live = step.getByTestId("cycle-live-output");
  await expect(step.getByTestId("cycle-output")).toHaveCount(0);
  const firstSeen = (await live.textContent()) ?? "";
  expect(firstSeen).toMatch(earlyLine);
  await expect(live).toContainText(laterLine);
  await expect(step.getByTestId("cycle-output")).toHaveCount(0);
  expect(((await live.textContent()) ?? "").length).toBeGreaterThan(firstSeen.length);
  return live;
}

async function stopRun(page: Page) {
  await page
    .getByTestId("stop-run")
    .click({ timeout: 5_000 })
    .catch(() => undefined);
}

test("a Node project with a dependency: `npm ci` then `npm test`, live output, the failing test named", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  server = await startArborServer({
    port: SPARE_APP_PORT,
    dataDir: ".e2e/sbx-npm-ci",
    modelUrl: "",
    env: { ARBOR_EGRESS_PROXY_PORT: EGRESS_PORT },
  });
  await signUp(page, newUser("npmci"));
  await createProject(page, "Duration (Node)", `file://${nodeProjectWithDependency()}`);

  // The lock file gives the setup command; the project page asks for it where work starts, and a person
  // approves it once there; the settings page shows it approved, the phases keep their defaults.
  const notice = page.getByTestId("setup-notice");
  await expect(notice).toContainText("waits for approval");
  await expect(notice.getByTestId("setup-notice-command")).toHaveText("npm ci");
  await expect(notice).toContainText("detected from the lock file");
  await notice.getByTestId("setup-notice-approve").click();
  await expect(notice.getByTestId("setup-notice-approved")).toContainText("every new session runs npm ci");
  await openProjectSettings(page);
  await expect(page.getByTestId("setup-command")).toContainText("npm ci");
  await expect(page.getByTestId("setup-approval")).toContainText("Approved");
  await expect(page.getByTestId("egress-setup-mode")).toHaveValue("registries");
  await expect(page.getByTestId("egress-agent-mode")).toHaveValue("off");

  await startTask(page, "run `npm ci` and then run `npm test`");
  const testStep = child(page, 1);
  const liveTest = testStep.getByTestId("cycle-live-output");
  await approveUntil(
    page,
    async () => /checking slowly [1-4]\/10/.test((await liveTest.allTextContents()).join("\n")),
    240_000,
  );
  const live = await expectLiveWhileRunning(testStep, /checking slowly/, /checking slowly [6-9]\/10/);
  await page.screenshot({ path: testInfo.outputPath("npm-test-live.png"), fullPage: true });

  // The test step's result: the stored output replaces the live lines, and its counts name the test.
  await expect(testStep.getByTestId("cycle-output").first()).toContainText(NODE_DEPENDENCY_FAILING_TEST, {
    timeout: 60_000,
  });
  await expect(live).toHaveCount(0);
  const counts = testStep.getByTestId("cycle-tests").first();
  await expect(counts).toContainText("1 passed, 1 failed");
  await expect(counts.getByRole("list", { name: "Failing tests" })).toContainText(
    NODE_DEPENDENCY_FAILING_TEST,
  );

  // The agent's own `npm ci` ran with the agent phase Off: it installed from the cache the setup filled.
  await expect(child(page, 0).getByTestId("cycle-output").first()).toContainText("added 1 package");
  const environment = page.getByTestId("environment-panel");
  await expect(environment.getByTestId("environment-setup")).toContainText(/Setup npm ci: done in/);
  await expect(environment.getByTestId("environment-phase-setup")).toContainText("Package registries only");
  await expect(environment.getByTestId("environment-phase-agent")).toContainText("Off");
  await expect(environment.getByTestId("environment-connections")).toContainText(/[1-9]\d* allowed/);
  await environment.getByTestId("environment-connections").locator("summary").click();
  await expect(environment.getByTestId("environment-connections")).toContainText("registry.npmjs.org:443");
  await page.screenshot({ path: testInfo.outputPath("npm-test-result.png"), fullPage: true });
  await stopRun(page);
});

test("a Python project: `python3 -m pytest`, live output, the failing test named on the node", async ({
  page,
}) => {
  server = await startArborServer({
    port: SPARE_APP_PORT,
    dataDir: ".e2e/sbx-pytest",
    modelUrl: "",
    env: { ARBOR_EGRESS_PROXY_PORT: EGRESS_PORT },
  });
  await signUp(page, newUser("pytest"));
  await createProject(page, "Calc (pytest)", `file://${pythonProject()}`);
  await startTask(page, "run `python3 -m pytest`");
  const liveTest = page.getByTestId("cycle-live-output");
  await approveUntil(
    page,
    async () => /test_counts_slowly\[[1-4]\] PASSED/.test((await liveTest.allTextContents()).join("\n")),
    120_000,
  );
  const step = page.getByTestId("intention").first();
  const live = await expectLiveWhileRunning(step, /test_counts_slowly/, /test_counts_slowly\[[6-9]\] PASSED/);
  await expect(step.getByTestId("cycle-output").first()).toContainText(
    `FAILED test_calc.py::${PYTHON_FAILING_TEST}`,
    { timeout: 60_000 },
  );
  await expect(live).toHaveCount(0);
  const counts = step.getByTestId("cycle-tests").first();
  await expect(counts).toContainText("10 passed, 1 failed");
  await expect(counts.getByRole("list", { name: "Failing tests" })).toContainText(PYTHON_FAILING_TEST);
  await stopRun(page);
});
