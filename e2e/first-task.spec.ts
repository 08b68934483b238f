import { expect, type Locator, type Page, type TestInfo, test } from "@playwright/test";
import { approvalCard, expectRunStatus, intentions, newUser, signUp } from "../testing/e2e/arbor";
import { SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

/**
 * Issue #17.3 and #17.4 on the embedded default: no model configured, so the built-in offline model
 * answers. A new account's sample project and its suggested task end VERIFIED red → green within a
 * minute; a plain-English task is answered at once; a rejected command is not proposed again.
 */

let server: ArborServer | null = null;
test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  server = await startArborServer({ port: SPARE_APP_PORT, dataDir: ".e2e/first-task", modelUrl: "" });
});
test.afterAll(async () => {
  await server?.stop();
  server = null;
});

async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/**
 * The scrolling boxes (and the viewport) that hide part of an element where it is now: empty when the
 * whole element is in sight.
 */
function clippedBy(element: Locator): Promise<string[]> {
  return element.evaluate((target) => {
    const box = target.getBoundingClientRect();
    const clips: string[] = [];
    for (let scroller = target.parentElement; scroller; scroller = scroller.parentElement) {
      if (!/auto|scroll|hidden|clip/.test(getComputedStyle(scroller).overflowY)) continue;
      const frame = scroller.getBoundingClientRect();
      if (box.top < frame.top - 1 || box.bottom > frame.bottom + 1) {
        clips.push(
          `${scroller.tagName.toLowerCase()}.${scroller.className} shows ${Math.round(frame.top)}–${Math.round(frame.bottom)} of ${Math.round(box.top)}–${Math.round(box.bottom)}`,
        );
      }
    }
    if (box.bottom > window.innerHeight + 1) clips.push(`the viewport ends at ${window.innerHeight}`);
    return clips;
  });
}

/** Approves every card that asks until the run ends (the sample asks for its edit, maybe its checks). */
async function approveUntilEnded(page: Page): Promise<string[]> {
  const status = page.getByTestId("session-bar").getByTestId("run-status");
  const approved: string[] = [];
  const deadline = Date.now() + 55_000;
  while (Date.now() < deadline) {
    const stored = await status.getAttribute("data-status");
    if (stored !== null && stored !== "RUNNING") break;
    const card = page.getByTestId("approval-card").first();
    if (await card.isVisible()) {
      approved.push(`${await card.getAttribute("data-kind")}`);
      await card.getByTestId("approve").click();
      await expect(card.getByTestId("approve"))
        .toHaveCount(0, { timeout: 5_000 })
        .catch(() => undefined);
    }
    await page.waitForTimeout(250);
  }
  return approved;
}

test("one click makes the sample project, and its suggested first task ends VERIFIED red → green in a minute", async ({
  page,
}, testInfo) => {
  await signUp(page, newUser("first"));
  await expect(page.getByTestId("projects-empty")).toBeVisible();
  await shot(page, testInfo, "projects-empty");
  const clickedAt = Date.now();
  await page.getByTestId("create-sample-project").click();
  await expect(page.getByTestId("project-title")).toHaveText("Sample: node-sum");
  // The suggested task is in the box, and the box shows what the offline model understands.
  await expect(page.getByTestId("task-input")).toHaveValue("replace `a - b` with `a + b` in `sum.js`");
  await expect(page.getByTestId("offline-help")).toBeVisible();
  await shot(page, testInfo, "sample-project");
  await page.getByTestId("task-submit").click();
  await expect(page).toHaveURL(/\/sessions\/[^/]+$/);

  const approved = await approveUntilEnded(page);
  console.info(`cards approved: ${approved.join(", ")}`);
  await shot(page, testInfo, "sample-ended");
  await expectRunStatus(page, "VERIFIED");
  const seconds = (Date.now() - clickedAt) / 1000;
  console.info(`sample project click → VERIFIED: ${seconds.toFixed(1)} s`);
  expect(seconds).toBeLessThan(60);
  const root = intentions(page).first();
  await expect(root.getByTestId("intention-evidence")).toHaveAttribute("data-evidence", "red-to-green");
  // The evidence is the sample's own test: red at the baseline, green after the edit.
  await expect(root.getByTestId("baseline-check").filter({ hasText: "node --test" })).toHaveAttribute(
    "data-state",
    "red",
  );
  await expect(page.getByTestId("tree-announcer")).toContainText("verified");
  await shot(page, testInfo, "sample-verified");

  // The project's session list shows the run's shown status.
  await page.goto(page.url().replace(/\/sessions\/.*$/, ""));
  await expect(page.getByTestId("session-list").getByTestId("run-status")).toHaveAttribute(
    "data-shown",
    "VERIFIED",
  );
});

test("a plain-English task on the offline model is answered at once with what it can do", async ({
  page,
}, testInfo) => {
  await signUp(page, newUser("plain"));
  await page.getByTestId("create-sample-project").click();
  await expect(page.getByTestId("project-title")).toHaveText("Sample: node-sum");
  // A click on an example puts it in the box.
  await page.getByTestId("offline-example").first().click();
  await expect(page.getByTestId("task-input")).toHaveValue("run `npm test`");
  await page.getByTestId("task-input").fill("please fix the failing test in the sum function");
  const sentAt = Date.now();
  await page.getByTestId("task-submit").click();
  await expect(page).toHaveURL(/\/sessions\/[^/]+$/);
  const answer = page.getByTestId("message-agent");
  await expect(answer).toContainText("cannot read this request, so nothing was run");
  await expect(answer).toContainText("run `npm test`");
  await expect(answer).toContainText("configure a model");
  await expectRunStatus(page, "FAILED");
  console.info(`plain-English task → explanation: ${Date.now() - sentAt} ms`);
  await expect(page.getByTestId("cycle")).toHaveCount(0);
  await expect(page.getByTestId("run-reason")).toContainText("nothing was run");
  // The chat box is empty after a message it took, and offers the examples again.
  await expect(page.getByTestId("task-input")).toHaveValue("");
  await expect(page.getByTestId("offline-help")).toBeVisible();
  // No empty Intentions card: one line says why there is no tree.
  await expect(page.getByTestId("no-intention-tree")).toHaveText(
    "No intention tree: this request was answered without running anything.",
  );
  // At 1440×900 the whole answer can be read in its pane: scrolled to, no part of it is clipped.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-layout", "panes");
  await answer.scrollIntoViewIfNeeded();
  await expect.poll(() => clippedBy(answer)).toEqual([]);
  await shot(page, testInfo, "plain-english-answered");
});

test("a rejected command is not proposed again unchanged: the node fails saying who rejected it and why", async ({
  page,
}, testInfo) => {
  const user = newUser("rejects");
  await signUp(page, user);
  await page.getByTestId("create-sample-project").click();
  await expect(page.getByTestId("project-title")).toHaveText("Sample: node-sum");
  await page.getByTestId("task-input").fill("run `touch once.txt`");
  await page.getByTestId("task-submit").click();
  const card = approvalCard(page, "command");
  await expect(card.getByTestId("command-input")).toHaveValue("touch once.txt");
  await card.getByTestId("reject").click();
  await card.getByTestId("reject-reason").fill("not in this repository");
  await card.getByTestId("confirm-reject").click();

  await expectRunStatus(page, "FAILED");
  await expect(page.getByTestId("approval-card")).toHaveCount(0);
  await expect(page.getByTestId("cycle")).toHaveCount(1);
  const root = intentions(page).first();
  await expect(root.getByTestId("intention-reason")).toContainText(
    `${user.name} rejected \`touch once.txt\` (not in this repository), and the model proposed it again unchanged`,
  );
  await shot(page, testInfo, "rejected-not-reproposed");
});
