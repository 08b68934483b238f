import { expect, type Page, test } from "@playwright/test";
import {
  child,
  createProject,
  expectRunStatus,
  intentions,
  newUser,
  signUp,
  startTask,
} from "../testing/e2e/arbor";
import { FAKE_MODEL_PORT, SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

const modelUrl = `http://127.0.0.1:${FAKE_MODEL_PORT}/v1`;
const dataDir = ".e2e/restart";
let server: ArborServer | null = null;

test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

// Each test starts a server three times (and kills it twice): on a loaded machine that alone can take
// most of the default two minutes.
test.describe.configure({ timeout: 240_000 });

/** Each intention node's full text, in tree order: what the log says about it, shown or folded. */
async function nodeTexts(page: Page): Promise<string[]> {
  return intentions(page).evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ""));
}

async function restart(keepData: boolean) {
  await server?.kill9();
  server = await startArborServer({ port: SPARE_APP_PORT, dataDir, modelUrl, keepData });
}

test("kill -9 while an approval waits, and again after the run: nothing is lost", async ({ page }) => {
  await restart(false);
  await signUp(page, newUser("durable"));
  await createProject(page, "Durable");
  await startTask(page, "run `echo alpha` and then run `echo beta`");
  await expect(page.getByTestId("approval-card")).toBeVisible();

  await restart(true);
  await page.reload();
  await expect(page.getByTestId("approval-card")).toBeVisible();
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expect(intentions(page)).toHaveCount(3);
  // Every node's whole text (closed details included, so what is folded away counts too), once the
  // run's last events have arrived: two equal reads in a row, the children's own commands in them.
  let before: string[] = [];
  await expect(async () => {
    const first = await nodeTexts(page);
    await page.waitForTimeout(300);
    before = await nodeTexts(page);
    expect(before).toEqual(first);
    expect(before.join("\n")).toContain("COMMAND echo beta");
  }).toPass({ timeout: 30_000 });
  await restart(true);
  await page.reload();
  await expectRunStatus(page, "VERIFIED");
  await expect(intentions(page)).toHaveCount(3);
  expect(await nodeTexts(page)).toEqual(before);
});

test("a run killed in the middle of a command continues after the restart", async ({ page }) => {
  await restart(false);
  await signUp(page, newUser("interrupted"));
  await createProject(page, "Interrupted");
  await startTask(page, "run `sleep 6 && echo slow done` and then run `echo after`");
  await page.getByTestId("approve").click();
  await expect(child(page, 0).getByTestId("cycle")).toHaveCount(1);

  await restart(true);
  await page.reload();
  await expectRunStatus(page, "VERIFIED");
  const first = child(page, 0);
  await expect(first.getByTestId("cycle")).toHaveCount(2);
  await expect(first.getByTestId("cycle-judgment").first()).toHaveAttribute("data-status", "UNCLEAR");
  await expect(first.getByTestId("cycle-judgment").nth(1)).toHaveAttribute("data-status", "SUCCESS");
});

test("kill -9 during a command that writes: the card asks to run it again, with its run time and output so far", async ({
  page,
}) => {
  await restart(false);
  await signUp(page, newUser("cutoff"));
  await createProject(page, "Cut off");
  await startTask(page, "run `echo tick 1 && echo tick 2 && sleep 8 && echo once >> marker.txt`");
  await page.getByTestId("approve").click();
  // Its first lines are on the page (live output): the server has them too.
  await expect(page.getByTestId("cycle-live-output")).toContainText("tick 2", { timeout: 30_000 });
  await page.waitForTimeout(1_000);

  await restart(true);
  await page.reload();
  const card = page.getByTestId("approval-card");
  await expect(card).toBeVisible({ timeout: 60_000 });
  await expect(card.locator("h2")).toHaveText("Run this command again?");
  await expect(card.getByTestId("interrupted-ran")).toContainText(/ran for (at least )?\d+\.\d s/);
  const output = card.getByTestId("interrupted-output");
  await expect(output).toContainText("tick 1");
  await expect(output).toContainText("tick 2");
  await card.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
});
