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

  test("a 20 KB pasted stack trace is answered at once on the offline model, kept whole, without an internal error", async ({
    page,
  }) => {
    server = await startArborServer({ port: SPARE_APP_PORT, dataDir: ".e2e/long-task", modelUrl: "" });
    const task = pastedStackTrace();
    expect(task.length).toBeGreaterThan(20_000);
    await signUp(page, newUser("long-task"));
    await createProject(page, "Long task");
    await startTask(page, task);
    // Issue #17.3: plain English (no command or file in backticks) is answered at once by the built-in
    // offline model, with no cycles. (The heuristics' own handling of long input, summary and split,
    // is server/riva/long-task.test.ts, which runs them under another model id.)
    const status = page.getByTestId("session-bar").getByTestId("run-status");
    await expect(status).toHaveAttribute("data-status", "FAILED", { timeout: 30_000 });
    await expect(page.getByTestId("run-reason")).toContainText("cannot read this request");
    await expect(page.getByTestId("message-agent").first()).toContainText("backticks");
    // The person's paste is kept whole in the conversation, last frame included.
    const asked = page.getByTestId("message-user").first();
    await expect(asked).toContainText("last-frame-marker");
    expect((await asked.locator(".text").textContent())?.length).toBe(task.length);
    await expect(page.getByTestId("intention")).toHaveCount(0);
    await expect(page.getByText(/internal error/)).toHaveCount(0);
  });
});
