import { expect, test } from "@playwright/test";
import { createProject, newUser, signUp, startTask } from "../testing/e2e/arbor";
import { SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

/** A 20 KB stack trace pasted as a task, the way a person reports a crash. */
function pastedStackTrace(): string {
  const lines = ["fix this crash:", "TypeError: Cannot read properties of undefined (reading 'id')"];
  for (let i = 0; lines.join("\n").length < 20_000; i++)
    lines.push(`    at handler${i} (/workspace/src/module${i % 17}.js:${i + 1}:${(i % 80) + 1})`);
  lines.push("    at last-frame-marker (/workspace/src/main.js:1:1)");
  return lines.join("\n");
}

test.describe("a long task on the offline model", () => {
  let server: ArborServer | null = null;
  test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
  test.afterEach(async () => {
    await server?.stop();
    server = null;
  });

  test("a 20 KB pasted stack trace runs without crashing; the node shows a summary and keeps the full text", async ({
    page,
  }) => {
    server = await startArborServer({ port: SPARE_APP_PORT, dataDir: ".e2e/long-task", modelUrl: "" });
    const task = pastedStackTrace();
    expect(task.length).toBeGreaterThan(20_000);
    await signUp(page, newUser("long-task"));
    await createProject(page, "Long task");
    await startTask(page, task);
    const root = page.locator('[data-testid="intention"][data-depth="0"]');
    await expect(root.getByTestId("intention-what-summary").first()).toHaveText("fix this crash:");
    await expect(root.getByTestId("intention-what-toggle").first()).toContainText("characters");
    await root.getByTestId("intention-what-toggle").first().click();
    const full = root.getByTestId("intention-what-full").first();
    await expect(full).toContainText("last-frame-marker");
    expect((await full.textContent())?.length).toBe(task.length);
    // The offline model splits it: the decomposition card shows the steps, each within its cap.
    await expect(page.getByTestId("proposed-child").first()).toBeVisible({ timeout: 60_000 });
    await page.getByTestId("approve").click();
    await expect(page.getByTestId("proposed-child")).toHaveCount(0);
    // Whatever comes of the steps, the run goes on (ends or asks again) and never ends in an internal error.
    await expect
      .poll(
        async () =>
          (await page.getByTestId("run-status").getAttribute("data-status")) !== "RUNNING" ||
          (await page.getByTestId("approve").count()) > 0,
        { timeout: 90_000 },
      )
      .toBe(true);
    await expect(page.getByText(/internal error/)).toHaveCount(0);
  });
});
