import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import {
  child,
  createProject,
  expectRunStatus,
  newUser,
  signUp,
  startTask,
  treeSnapshot,
} from "../testing/e2e/arbor";

/** Clicks a download button and returns the path and name of the file the browser saved. */
async function download(page: Page, testId: string): Promise<{ file: string; name: string }> {
  const saved = page.waitForEvent("download");
  await page.getByTestId(testId).click();
  const result = await saved;
  return { file: await result.path(), name: result.suggestedFilename() };
}

/** Chooses the file on the project page and waits for the new session it opens. */
async function importFile(page: Page, projectId: string, file: string, original: string): Promise<void> {
  await page.goto(`/projects/${projectId}`);
  await page.getByTestId("import-session").setInputFiles(file);
  await page.waitForURL((url) => url.pathname.includes("/sessions/") && url.href !== original);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");
}

test("a verified session exported as JSON imports as a new session with the same tree", async ({ page }) => {
  await signUp(page, newUser("capture"));
  const projectId = await createProject(page, "Capture demo");
  await expect(page.getByTestId("project-memory-empty")).toBeVisible();

  const original = await startTask(page, "run `echo one` and then run `echo two`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expect(child(page, 1).getByTestId("cycle-output")).toContainText("two");
  const before = await treeSnapshot(page);

  const exported = await download(page, "export-session");
  expect(exported.name).toMatch(/^arbor-session-.+\.json$/);
  const doc = JSON.parse(readFileSync(exported.file, "utf8")) as { format: string; events: unknown[] };
  expect(doc.format).toBe("arbor-session");
  expect(doc.events.length).toBeGreaterThan(10);

  const training = await download(page, "export-training");
  expect(training.name).toMatch(/\.jsonl$/);
  const lines = readFileSync(training.file, "utf8").trim().split("\n");
  expect(lines.map((line) => (JSON.parse(line) as { action: { content: string } }).action.content)).toEqual([
    "echo one",
    "echo two",
  ]);

  await importFile(page, projectId, exported.file, original);
  await expectRunStatus(page, "VERIFIED");
  await expect(child(page, 1).getByTestId("cycle-output")).toContainText("two");
  expect(await treeSnapshot(page)).toEqual(before);

  // The same file again: another new session, not a clash with the first import.
  const firstImport = page.url();
  await importFile(page, projectId, exported.file, firstImport);
  await expectRunStatus(page, "VERIFIED");
  expect(await treeSnapshot(page)).toEqual(before);

  await page.goto(`/projects/${projectId}`);
  const memory = page.getByTestId("project-memory");
  await expect(memory).toContainText("echo one");
  await expect(memory).toContainText("echo two");
  await expect(memory.locator('[data-kind="decision"]')).toHaveCount(1);
});

test("an unfinished run is imported stopped, with its approval still visible", async ({ page }) => {
  await signUp(page, newUser("capture-stop"));
  const projectId = await createProject(page, "Capture pending");
  const original = await startTask(page, "run `echo three` and then run `echo four`");
  await expect(page.getByTestId("approval-card")).toBeVisible();
  await expectRunStatus(page, "RUNNING");

  const exported = await download(page, "export-session");
  await importFile(page, projectId, exported.file, original);
  await expectRunStatus(page, "STOPPED");
  await expect(page.getByTestId("run-reason")).toContainText("imported: the original run had not finished");
  await expect(page.getByTestId("approval-card").getByTestId("proposed-child")).toHaveCount(2);
  await expect(page.getByTestId("stop-run")).toBeHidden();
});

test("a file that is not a session export is refused with a clear error", async ({ page }) => {
  await signUp(page, newUser("capture-bad"));
  await createProject(page, "Capture errors");
  const input = page.getByTestId("import-session");

  await input.setInputFiles({
    name: "broken.json",
    mimeType: "application/json",
    buffer: Buffer.from("{ nope"),
  });
  await expect(page.getByTestId("import-error")).toContainText("This file is not JSON");

  const wrong = JSON.stringify({ format: "arbor-session", version: 7, events: [] });
  await input.setInputFiles({ name: "wrong.json", mimeType: "application/json", buffer: Buffer.from(wrong) });
  const error = page.getByTestId("import-error");
  await expect(error).toContainText("not a valid Arbor session export");
  await expect(error).toContainText("version: unsupported export version");
  await expect(error).toContainText("session:");
  await expect(page.getByTestId("session-list").locator("li")).toHaveCount(0);
  await expect(page).toHaveURL(/\/projects\/[^/]+$/);
});
