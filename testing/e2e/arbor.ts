import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";

/** Page objects for Arbor's screens: each function is one thing a user does. */

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

export function newUser(label = "user"): TestUser {
  const id = randomUUID().slice(0, 8);
  return { name: `${label} ${id}`, email: `${label}-${id}@example.com`, password: `pw-${id}-secret` };
}

export async function signUp(page: Page, user: TestUser): Promise<void> {
  await page.goto("/login");
  await page.getByTestId("tab-sign-up").click();
  await page.getByTestId("name").fill(user.name);
  await page.getByTestId("email").fill(user.email);
  await page.getByTestId("password").fill(user.password);
  await page.getByTestId("submit-login").click();
  await expect(page).toHaveURL(/\/projects$/);
}

export async function signIn(page: Page, user: Pick<TestUser, "email" | "password">): Promise<void> {
  await page.goto("/login");
  await page.getByTestId("email").fill(user.email);
  await page.getByTestId("password").fill(user.password);
  await page.getByTestId("submit-login").click();
}

export async function createProject(page: Page, name: string, sourceUrl?: string): Promise<string> {
  await page.goto("/projects");
  await page.getByTestId("project-name").fill(name);
  if (sourceUrl) {
    await page.getByTestId("project-import-toggle").check();
    await page.getByTestId("project-source").fill(sourceUrl);
  }
  await page.getByTestId("create-project").click();
  await expect(page.getByTestId("project-title")).toHaveText(name);
  const match = /\/projects\/([^/]+)$/.exec(page.url());
  if (!match?.[1]) throw new Error(`not on a project page: ${page.url()}`);
  return match[1];
}

/** From the project page to its settings page (model, checkpoints, intents, sandbox, network). */
export async function openProjectSettings(page: Page): Promise<void> {
  await page.getByTestId("project-settings-link").click();
  await expect(page.getByTestId("settings-title")).toBeVisible();
}

/**
 * Types a task on the project page and waits for the session page it opens. From the project's
 * settings page, it goes back to the project page first.
 */
export async function startTask(page: Page, task: string): Promise<string> {
  if (/\/settings$/.test(new URL(page.url()).pathname)) {
    await page.getByTestId("settings-project-link").click();
    await expect(page.getByTestId("project-title")).toBeVisible();
  }
  await page.getByTestId("task-input").fill(task);
  await page.getByTestId("task-submit").click();
  await expect(page).toHaveURL(/\/sessions\/[^/]+$/);
  return page.url();
}

export function intentions(page: Page) {
  return page.getByTestId("intention");
}

export function child(page: Page, index: number) {
  return page.locator('[data-testid="intention"][data-depth="1"]').nth(index);
}

export async function expectRunStatus(page: Page, status: string): Promise<void> {
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", status);
}

/** The tree as text: statuses, what, decisions, cycle commands and outputs. Used to compare states. */
export async function treeSnapshot(page: Page): Promise<string> {
  await page.locator("details[data-testid=cycle]").evaluateAll((nodes) => {
    for (const node of nodes) (node as HTMLDetailsElement).open = true;
  });
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person sees, which is the point.
  return page.getByTestId("intention-tree").first().innerText();
}

/** Sets the project's checkpoint questions (on its settings page, opened from the project page) and saves them. */
export async function setCheckpoints(page: Page, choices: Record<string, string>): Promise<void> {
  if (!/\/settings$/.test(new URL(page.url()).pathname)) await openProjectSettings(page);
  for (const [testid, value] of Object.entries(choices)) {
    await page.getByTestId(`checkpoint-${testid}`).selectOption(value);
  }
  await page.getByTestId("save-checkpoints").click();
  await expect(page.getByTestId("checkpoints-saved")).toBeVisible();
}

/**
 * Shows one of the session workspace's tabs (Changes, Files, Terminal, Replay; on a narrow screen
 * also Chat and Intentions) and waits for its panel.
 */
export async function openWorkspaceTab(
  page: Page,
  tab: "changes" | "files" | "terminal" | "replay" | "chat" | "tree",
): Promise<void> {
  await page.getByTestId(`tab-${tab}`).click();
  await expect(page.getByTestId(`workspace-panel-${tab}`)).toBeVisible();
}

/** The waiting approval card of one kind (judgment, integration, reflection, intention-budget, …). */
export function approvalCard(page: Page, kind: string) {
  return page.locator(`[data-testid="approval-card"][data-kind="${kind}"]`);
}

/** Each intention node's whole text, once two reads in a row agree (the last events have arrived). */
export async function settledTexts(page: Page): Promise<string[]> {
  let texts: string[] = [];
  await expect(async () => {
    const before = await intentions(page).evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ""));
    await page.waitForTimeout(300);
    texts = await intentions(page).evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ""));
    expect(texts).toEqual(before);
    expect(texts.length).toBeGreaterThan(0);
  }).toPass({ timeout: 30_000 });
  return texts;
}
