import { expect, type Page, test } from "@playwright/test";
import { createProject, newUser, openProjectSettings, signUp, startTask } from "../testing/e2e/arbor";
import { SPARE_APP_PORT } from "../testing/e2e/ports";
import {
  NODE_FAILING_TEST,
  nodeProject,
  PYTHON_FAILING_TEST,
  pythonProject,
} from "../testing/e2e/sandbox-projects";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

/**
 * Real projects in the real sandbox image, on the built-in offline model: the project's own test
 * command runs, its output arrives on the page while it still runs (ephemeral live lines under the
 * cycle), and when it ends the stored output names the failing test. The session shows the sandbox's
 * toolchains and the resources the project set.
 */
let server: ArborServer | null = null;
test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

async function setResources(page: Page, values: Record<string, string>) {
  if (!/\/settings$/.test(new URL(page.url()).pathname)) await openProjectSettings(page);
  for (const [testid, value] of Object.entries(values)) await page.getByTestId(testid).fill(value);
  await page.getByTestId("save-resources").click();
}

/** Runs `command` in a new session and checks its output streams in before the command ends. */
async function runAndWatch(page: Page, command: string, earlyLine: RegExp, laterLine: RegExp) {
  await startTask(page, `run \`${command}\``);
  await page.getByTestId("approve").click();
  const live = page.getByTestId("cycle-live-output");
  // A line from early in the run, while the command is still going: the cycle has no stored result yet.
  await expect(live).toContainText(earlyLine, { timeout: 60_000 });
  await expect(page.getByTestId("cycle-output")).toHaveCount(0);
  const firstSeen = (await live.textContent()) ?? "";
  // More lines arrive in the same place as the command goes on, before its result is stored.
  await expect(live).toContainText(laterLine);
  await expect(page.getByTestId("cycle-output")).toHaveCount(0);
  expect(((await live.textContent()) ?? "").length).toBeGreaterThan(firstSeen.length);
  return live;
}

test("a Node project's `npm test` streams its output live, then the failing test's name", async ({
  page,
}, testInfo) => {
  server = await startArborServer({ port: SPARE_APP_PORT, dataDir: ".e2e/sbx-node", modelUrl: "" });
  await signUp(page, newUser("node"));
  await createProject(page, "Sum (Node)", `file://${nodeProject()}`);

  // Resources: a value over the server's cap is refused with the cap named; valid ones are saved.
  await setResources(page, { "resource-cpus": "64" });
  await expect(page.getByTestId("resources-error")).toContainText("ARBOR_SANDBOX_MAX_CPUS");
  await setResources(page, { "resource-cpus": "1.5", "resource-memory": "768", "resource-pids": "300" });
  await expect(page.getByTestId("resources-saved")).toContainText("1.5 CPU, 768 MB, 300 processes");

  const live = await runAndWatch(page, "npm test", /checking slowly [1-3]\/10/, /checking slowly [5-9]\/10/);
  await page.screenshot({ path: testInfo.outputPath("node-live-output.png"), fullPage: true });

  // When it ends, the stored output (what the replay shows) replaces the live lines and names the test.
  const stored = page.getByTestId("cycle-output").first();
  await expect(stored).toContainText(NODE_FAILING_TEST, { timeout: 60_000 });
  await expect(stored).toContainText("checking slowly 10/10");
  await expect(live).toHaveCount(0);

  // The session says what the sandbox has and the limits it runs with.
  await expect(page.getByTestId("sandbox-toolchains")).toContainText(/node 24\.\d+\.\d+/);
  await expect(page.getByTestId("sandbox-toolchains")).toContainText(/python3 3\.\d+/);
  await expect(page.getByTestId("sandbox-resources")).toContainText(
    "1.5 CPU · 768 MB memory · 300 processes",
  );
  await page
    .getByTestId("stop-run")
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await page.screenshot({ path: testInfo.outputPath("node-result.png"), fullPage: true });

  // The replay shows the stored output and the same sandbox line.
  await page.getByTestId("open-replay").click();
  await expect(page.getByTestId("sandbox-toolchains")).toContainText(/node 24\./);
});

test("a Python project's `python3 -m pytest` streams its output live, then the failing test's name", async ({
  page,
}, testInfo) => {
  server = await startArborServer({ port: SPARE_APP_PORT, dataDir: ".e2e/sbx-python", modelUrl: "" });
  await signUp(page, newUser("python"));
  await createProject(page, "Calc (Python)", `file://${pythonProject()}`);
  const live = await runAndWatch(
    page,
    "python3 -m pytest",
    /test_counts_slowly\[[1-3]\] PASSED/,
    /test_counts_slowly\[[6-9]\] PASSED/,
  );
  await page.screenshot({ path: testInfo.outputPath("python-live-output.png"), fullPage: true });
  const stored = page.getByTestId("cycle-output").first();
  await expect(stored).toContainText(`FAILED test_calc.py::${PYTHON_FAILING_TEST}`, { timeout: 60_000 });
  await expect(live).toHaveCount(0);
  await expect(page.getByTestId("sandbox-toolchains")).toContainText(/pip 23\./);
  await page
    .getByTestId("stop-run")
    .click({ timeout: 5_000 })
    .catch(() => undefined);
});
