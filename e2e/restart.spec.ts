import { expect, test } from "@playwright/test";
import {
  child,
  createProject,
  expectRunStatus,
  intentions,
  newUser,
  signUp,
  startTask,
  treeSnapshot,
} from "./support/arbor";
import { FAKE_MODEL_PORT, SPARE_APP_PORT } from "./support/ports";
import { type ArborServer, startArborServer } from "./support/server";

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
  // The tree as it settles (the run's last events may still be arriving): two equal reads in a row,
  // with both children in it.
  let before = "";
  await expect(async () => {
    const first = await treeSnapshot(page);
    await page.waitForTimeout(300);
    before = await treeSnapshot(page);
    expect(before).toEqual(first);
    expect(before).toContain("run `echo beta`");
  }).toPass({ timeout: 30_000 });

  await restart(true);
  await page.reload();
  await expectRunStatus(page, "VERIFIED");
  expect(await treeSnapshot(page)).toEqual(before);
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
