import { expect, test } from "@playwright/test";
import { createProject, newUser, openProjectSettings, signUp } from "../testing/e2e/arbor";
import { FAKE_MODEL_PORT } from "../testing/e2e/ports";

/**
 * Model settings: a project pointed at the e2e fake model server passes "test connection"; a wrong
 * address gets a clear error; a saved key shows only as "set" and never reaches the browser.
 */

const FAKE_URL = `http://127.0.0.1:${FAKE_MODEL_PORT}/v1`;
// Nothing listens here: the fake model server's port plus 7 is never used by the suite.
const CLOSED_URL = `http://127.0.0.1:${FAKE_MODEL_PORT + 7}/v1`;

test("a project's model settings: test connection, clear errors, and a key that never comes back", async ({
  page,
}) => {
  const apiKey = `sk-e2e-${Date.now()}-secret-zz9q`;
  const bodies: string[] = [];
  page.on("response", async (response) => {
    if (response.url().includes("/api/trpc")) bodies.push(await response.text().catch(() => ""));
  });

  await signUp(page, newUser("settings"));
  await createProject(page, "Model settings");
  await openProjectSettings(page);
  const section = page.getByTestId("project-model-settings");
  await expect(section.getByTestId("resolved-modelName")).toContainText("from default");

  await section.getByTestId("settings-provider").selectOption("openai-compatible");
  await section.getByTestId("settings-base-url").fill(FAKE_URL);
  await section.getByTestId("settings-model").fill("fake-model");
  await section.getByTestId("settings-api-key").fill(apiKey);
  await section.getByTestId("settings-test").click();
  const result = section.getByTestId("settings-test-result");
  await expect(result).toHaveAttribute("data-ok", "true");
  await expect(result).toContainText(/fake-model at .* answered in \d+ ms/);

  await section.getByTestId("settings-base-url").fill(CLOSED_URL);
  await section.getByTestId("settings-test").click();
  await expect(result).toHaveAttribute("data-ok", "false");
  await expect(result).toContainText("is not reachable (ECONNREFUSED). Check the base URL");
  await expect(result).toContainText("Check the base URL");

  await section.getByTestId("settings-base-url").fill(FAKE_URL);
  await section.getByTestId("settings-model").fill("no-such-model");
  await section.getByTestId("settings-test").click();
  await expect(result).toContainText("HTTP 404");
  await expect(result).toContainText("Check the model name");
  await section.getByTestId("settings-model").fill("fake-model");

  await section.getByTestId("settings-save").click();
  await expect(section.getByTestId("settings-saved")).toBeVisible();
  await expect(section.getByTestId("settings-key-status")).toHaveText(`set (ends in ${apiKey.slice(-4)})`);
  await expect(section.getByTestId("settings-api-key")).toHaveValue("");
  await expect(section.getByTestId("resolved-modelName")).toContainText("fake-model");
  await expect(section.getByTestId("resolved-modelName")).toContainText("from project");
  // The e2e server's environment names the same fake server, so the project's key goes with it.
  await expect(section.getByTestId("resolved-baseUrl")).toContainText("from environment");
  await expect(section.getByTestId("resolved-apiKey")).toContainText(`set (ends in ${apiKey.slice(-4)})`);
  await expect(section.getByTestId("resolved-apiKey")).toContainText("from project");

  // The stored key works for a test without typing it again.
  await section.getByTestId("settings-test").click();
  await expect(result).toHaveAttribute("data-ok", "true");

  await page.reload();
  await expect(page.getByTestId("settings-key-status")).toHaveText(`set (ends in ${apiKey.slice(-4)})`);
  expect(await page.content()).not.toContain(apiKey);
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) expect(body).not.toContain(apiKey);
});

test("team settings: a team's model shows on its projects as coming from the team", async ({ page }) => {
  await signUp(page, newUser("team-settings"));
  const projectId = await createProject(page, "Inherits");
  await openProjectSettings(page);
  await page.getByTestId("team-settings-link").click();
  await expect(page).toHaveURL(/\/teams\/[^/]+\/settings$/);
  await page.getByTestId("settings-model").fill("team-model-x");
  await page.getByTestId("settings-timeout").fill("500");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-error")).toContainText("at least 1000 ms");
  await page.getByTestId("settings-timeout").fill("45000");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();
  await page.goto(`/projects/${projectId}/settings`);
  await expect(page.getByTestId("resolved-modelName")).toContainText("team-model-x");
  await expect(page.getByTestId("resolved-modelName")).toContainText("from team");
  await expect(page.getByTestId("resolved-timeoutMs")).toContainText("45000 ms");
});
