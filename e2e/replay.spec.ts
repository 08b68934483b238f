import path from "node:path";
import { expect, test } from "@playwright/test";
import { storeSession } from "../testing/bench/store-session";
import { createProject, expectRunStatus, intentions, newUser, signUp, startTask } from "../testing/e2e/arbor";

/** A finished session replayed: scrub back to the decomposition, play forward to the end. */
test("a replay scrubs back to an earlier state and plays forward to the end", async ({ page }) => {
  await signUp(page, newUser("replayer"));
  await createProject(page, "Replay");
  await startTask(page, "run `echo one` and then run `echo two`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");

  await page.getByTestId("open-replay").click();
  await expect(page).toHaveURL(/\/replay$/);
  const position = page.getByTestId("replay-position");
  await expect(position).toContainText(/event (\d+) of \1/);
  await expect(intentions(page)).toHaveCount(3);

  await page.locator('[data-testid="replay-marker"][data-kind="decomposition"]').click();
  await expect(page.getByTestId("replay-waiting")).toContainText("decomposition");
  await expect(intentions(page)).toHaveCount(1);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "RUNNING");

  await page.getByTestId("replay-scrubber").fill("0");
  await expect(page.getByText("Nothing had happened yet.")).toBeVisible();
  await page.getByTestId("replay-speed").selectOption("64");
  await page.getByTestId("replay-play").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "VERIFIED", {
    timeout: 30_000,
  });
  await expect(intentions(page)).toHaveCount(3);
  await expect(page.getByTestId("replay-play")).toHaveText("Play");
});

/** A long session (stored straight into the suite's database): the replay opens with its first children. */
test("a long replay shows the first 50 children, the rest on request, and a cycle's details when opened", async ({
  page,
}) => {
  const user = newUser("longreplay");
  await signUp(page, user);
  const url = await storeSession(path.resolve(".e2e/main/arbor.db"), user.email, 1_000, "");
  await page.goto(url);
  await expect(page.getByTestId("replay-position")).toContainText("event 1000 of 1000");
  const children = page.locator('[data-testid="intention"][data-depth="1"]');
  await expect(children).toHaveCount(50);
  const more = page.getByTestId("show-all-children");
  const total = Number(/Show all (\d+) children/.exec((await more.textContent()) ?? "")?.[1]);
  expect(total).toBeGreaterThan(50);
  await more.click();
  await expect(children).toHaveCount(total);

  const cycle = children.first().getByTestId("cycle").first();
  await expect(cycle.getByTestId("cycle-output")).toHaveCount(0);
  await cycle.locator("summary").click();
  await expect(cycle.getByTestId("cycle-output")).toContainText("xxxx");

  // The log's own address answers only members of the session's team.
  const logUrl = url.replace(/\/projects\/[^/]+\/sessions\/([^/]+)\/replay$/, "/api/sessions/$1/events");
  expect(((await (await page.request.get(logUrl)).json()) as unknown[]).length).toBe(1_000);
  const stranger = await page.context().browser()?.newContext();
  if (!stranger) throw new Error("no browser");
  const strangerPage = await stranger.newPage();
  await signUp(strangerPage, newUser("replaystranger"));
  expect((await strangerPage.request.get(logUrl)).status()).toBe(404);
  await stranger.close();
  const anonymous = await page.context().browser()?.newContext();
  expect((await anonymous?.request.get(logUrl))?.status()).toBe(401);
  await anonymous?.close();
});

test("a replay shows the files as they were at each point, as diffs against the start", async ({ page }) => {
  await signUp(page, newUser("filer"));
  await createProject(page, "Replay files");
  await startTask(page, "run `echo hello > notes.txt` and then run `echo world >> notes.txt`");
  await page.getByTestId("approve").click();
  const card = page.locator('[data-testid="approval-card"][data-kind="command"]');
  await expect(card.getByTestId("command-input")).toHaveValue("echo hello > notes.txt");
  await card.getByTestId("approve").click();
  await expect(card.getByTestId("command-input")).toHaveValue("echo world >> notes.txt");
  await card.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");

  await page.getByTestId("open-replay").click();
  const files = page.getByTestId("replay-files");
  await expect(files.getByTestId("replay-changed-file")).toHaveText(["notes.txt +2 −0"]);
  await files.getByTestId("replay-file-diff").locator("summary").click();
  await expect(files.getByTestId("replay-file-diff")).toContainText("+hello\n+world");

  // Back to before anything was written, then to the first write only.
  await page.getByTestId("replay-scrubber").fill("0");
  await expect(files.getByTestId("replay-files-none")).toBeVisible();
  await page.locator('[data-testid="replay-marker"][data-kind="decomposition"]').click();
  await expect(files.getByTestId("replay-files-none")).toBeVisible();
  // The third answer approves the second command: the first write is done, the second not yet.
  await page.locator('[data-testid="replay-marker"][data-kind="approval"]').nth(2).click();
  await expect(files.getByTestId("replay-changed-file")).toHaveText(["notes.txt +1 −0"]);
  await page.getByTestId("replay-speed").selectOption("64");
  await page.getByTestId("replay-play").click();
  await expect(files.getByTestId("replay-changed-file")).toHaveText(["notes.txt +2 −0"], { timeout: 30_000 });
});
