import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { child, createProject, expectRunStatus, newUser, signUp, startTask } from "../testing/e2e/arbor";
import { SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

function makeRepository(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-import-"));
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
  git("init", "-q", "--initial-branch=main");
  writeFileSync(path.join(dir, "hello.txt"), "imported-marker-42\n");
  git("add", "hello.txt");
  git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "add hello");
  return dir;
}

test("a project imported from a file:// repository is what the sandbox works on", async ({ page }) => {
  const repo = makeRepository();
  await signUp(page, newUser("importer"));
  await createProject(page, "Imported", `file://${repo}`);
  await startTask(page, "run `cat hello.txt` and then run `git log --format=%s`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expect(child(page, 0).getByTestId("cycle-output")).toContainText("imported-marker-42");
  await expect(child(page, 1).getByTestId("cycle-output")).toContainText("add hello");
});

test.describe("with no model configured", () => {
  let server: ArborServer | null = null;
  test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
  test.afterEach(async () => {
    await server?.stop();
    server = null;
  });

  test("the built-in offline model runs the task and the UI says it is offline", async ({ page }) => {
    server = await startArborServer({ port: SPARE_APP_PORT, dataDir: ".e2e/offline", modelUrl: "" });
    await signUp(page, newUser("offline"));
    await expect(page.getByTestId("model-label")).toContainText("Offline model");
    await createProject(page, "Offline");
    await startTask(page, "run `echo from-offline` then run `uname -s`");
    await expect(page.getByTestId("offline-notice")).toBeVisible();
    await expect(page.getByTestId("proposed-child")).toHaveCount(2);
    await page.getByTestId("approve").click();
    await expectRunStatus(page, "VERIFIED");
    await expect(child(page, 0).getByTestId("cycle-output")).toContainText("from-offline");
    await expect(child(page, 1).getByTestId("cycle-output")).toContainText("Linux");
  });
});
