import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import { createProject, expectRunStatus, newUser, signUp, startTask } from "../testing/e2e/arbor";
import { WEBHOOK_RECEIVER_PORT } from "../testing/e2e/ports";

/**
 * Issue #21.4 in the browser: an owner adds a webhook on the team page, sees its secret once, runs a
 * task, and the team page's delivery log shows the receiver's first 500 and the retry's 200. The
 * receiver here checks every signature with the secret the page showed.
 */
let receiver: Server;
let receiverUrl = "";
let failuresLeft = 1;
const bodies: { event: string; valid: boolean }[] = [];
let secret = "";

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const timestamp = String(request.headers["x-arbor-timestamp"]);
      const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
      bodies.push({
        event: String(request.headers["x-arbor-event"]),
        valid: request.headers["x-arbor-signature"] === expected,
      });
      response.statusCode = failuresLeft-- > 0 ? 500 : 200;
      response.end();
    });
  });
  // The app allows webhooks to this one host:port only (playwright.config.ts, ARBOR_WEBHOOK_ALLOWED_HOSTS).
  await new Promise<void>((resolve) => receiver.listen(WEBHOOK_RECEIVER_PORT, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${WEBHOOK_RECEIVER_PORT}/hook`;
});
test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

test("an owner adds a webhook; a run's deliveries are signed, retried after a 500, and logged", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, newUser("hooks"));
  await page.getByTestId("team-members-link").first().click();
  await page.getByTestId("webhook-url").fill(receiverUrl);
  await page.getByTestId("add-webhook").click();
  secret = (await page.getByTestId("webhook-secret").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByTestId("webhook")).toContainText(receiverUrl);
  const teamUrl = page.url();
  expect(teamUrl).toMatch(/\/teams\/[^/]+$/);

  await createProject(page, "Hooked");
  await startTask(page, "run `ls`");
  await expectRunStatus(page, "VERIFIED");

  await page.goto(teamUrl);
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  const deliveries = page.getByTestId("webhook-delivery");
  await expect(async () => {
    await page.reload();
    await expect(deliveries.filter({ hasText: "run.started" })).toContainText("DELIVERED", {
      timeout: 10_000,
    });
    await expect(deliveries.filter({ hasText: "run.ended" })).toContainText("DELIVERED", { timeout: 10_000 });
  }).toPass({ timeout: 90_000 });
  const attempts = page.getByTestId("webhook-attempt");
  await expect(attempts.filter({ hasText: "HTTP 500" })).toHaveCount(1);
  await expect(attempts.filter({ hasText: "HTTP 200" }).first()).toBeVisible();
  expect(bodies.length).toBeGreaterThanOrEqual(3);
  expect(bodies.every((body) => body.valid)).toBe(true);
});
