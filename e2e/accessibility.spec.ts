import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, type TestInfo, test } from "@playwright/test";
import {
  approvalCard,
  expectRunStatus,
  newUser,
  openProjectSettings,
  openWorkspaceTab,
  signUp,
} from "../testing/e2e/arbor";

/**
 * Issue #17.5: every page passes axe-core with no serious or critical violation (colour contrast
 * included), once per theme. One pass per page per theme: a sample project with one finished run and
 * one waiting for a person gives the session page its cards, badges and tree; the session page is
 * read with each of its workspace tabs open.
 */

const THEMES = ["light", "dark"] as const;
const BLOCKING = new Set(["serious", "critical"]);

async function audit(page: Page, testInfo: TestInfo, name: string, ready: Locator) {
  await expect(ready.first()).toBeVisible();
  // Let the last query settle (loading text swapped for content) before the page is read.
  await page.waitForTimeout(400);
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const blocking = results.violations.filter((violation) => BLOCKING.has(violation.impact ?? ""));
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
  if (blocking.length > 0) {
    await testInfo.attach(`${name}-violations`, {
      body: JSON.stringify(blocking, null, 2),
      contentType: "application/json",
    });
  }
  const summary = blocking.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes
        .slice(0, 5)
        .map((node) => `${node.target.join(" ")} — ${node.failureSummary?.split("\n").slice(1, 2).join("")}`)
        .join(" | ")}`,
  );
  expect(summary, `${name}: serious or critical axe violations`).toEqual([]);
}

for (const theme of THEMES) {
  test(`every page passes axe-core in the ${theme} theme`, async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: theme });
    await page.goto("/login");
    await audit(page, testInfo, `${theme}-login`, page.getByTestId("submit-login"));

    await signUp(page, newUser(`axe-${theme}`));
    await audit(page, testInfo, `${theme}-projects`, page.getByTestId("create-sample-project"));

    await page.getByTestId("create-sample-project").click();
    await expect(page.getByTestId("project-title")).toHaveText("Sample: node-sum");
    const projectUrl = page.url().replace(/\?.*$/, "");
    await audit(page, testInfo, `${theme}-project`, page.getByTestId("project-repository"));
    // The project's settings are a page of their own (the model, checkpoints, intents, sandbox).
    await openProjectSettings(page);
    await audit(page, testInfo, `${theme}-project-settings`, page.getByTestId("project-model-settings"));
    const teamSettings = await page.getByTestId("team-settings-link").getAttribute("href");
    await page.goto(projectUrl);
    await expect(page.getByTestId("project-title")).toHaveText("Sample: node-sum");

    // A finished run, then one waiting for a person: the session page with a card and both badges.
    await page.getByTestId("task-input").fill("run `touch made.txt`");
    await page.getByTestId("task-submit").click();
    await expect(page).toHaveURL(/\/sessions\/[^/]+$/);
    await approvalCard(page, "command").getByTestId("approve").click();
    await expectRunStatus(page, "VERIFIED");
    await page.getByTestId("task-input").fill("run `touch again.txt`");
    await page.getByTestId("task-submit").click();
    await expect(approvalCard(page, "command")).toBeVisible();
    const sessionUrl = page.url();
    await audit(page, testInfo, `${theme}-session`, page.getByTestId("intention-tree"));
    // The workspace's right-hand tabs, each open in turn (Changes is the one open above).
    for (const tab of ["files", "terminal", "replay"] as const) {
      await openWorkspaceTab(page, tab);
      await audit(page, testInfo, `${theme}-session-${tab}`, page.getByTestId(`workspace-panel-${tab}`));
    }
    await openWorkspaceTab(page, "changes");
    await audit(page, testInfo, `${theme}-session-changes`, page.getByTestId("changes-panel"));

    await page.goto(`${sessionUrl}/replay`);
    await audit(page, testInfo, `${theme}-replay`, page.getByTestId("replay-position"));

    await page.goto("/inbox");
    await audit(page, testInfo, `${theme}-inbox`, page.getByTestId("inbox"));

    await page.goto("/dashboard");
    await audit(page, testInfo, `${theme}-dashboard`, page.getByTestId("chart-runs"));

    if (!teamSettings) throw new Error("no team settings link on the project page");
    await page.goto(teamSettings.replace(/\/settings$/, ""));
    await audit(page, testInfo, `${theme}-team`, page.locator("main h1, main h2"));
    await page.goto(teamSettings);
    await audit(page, testInfo, `${theme}-team-settings`, page.getByTestId("settings-model"));
    await page.goto("/account");
    await audit(page, testInfo, `${theme}-account`, page.getByTestId("personal-settings"));

    // Back to the project: its session list with both runs' shown statuses.
    await page.goto(projectUrl);
    await audit(
      page,
      testInfo,
      `${theme}-project-with-sessions`,
      page.getByTestId("session-list").locator("li"),
    );
  });
}
