import { expect, test } from "@playwright/test";
import {
  approvalCard,
  createProject,
  expectRunStatus,
  intentions,
  newUser,
  signUp,
} from "../testing/e2e/arbor";

/**
 * Chat mode in real Chromium against the production build, a real sandbox and the fake model server:
 * a question is answered (streamed, with its read-only tool calls, no intention tree), Agent mode
 * still works the loop, and both switches are the person's and survive a reload.
 */
test("Chat answers a question with read-only tools, streamed; Agent runs the loop; the switches stay put", async ({
  page,
}) => {
  await signUp(page, newUser("chatter"));
  await createProject(page, "Chat demo");

  const bar = page.getByTestId("switch-bar");
  await expect(bar).toHaveAttribute("data-mode", "agent");
  await page.getByTestId("mode-chat").click();
  await expect(bar).toHaveAttribute("data-mode", "chat");
  await expect(page.getByTestId("task-submit")).toHaveText("Ask");

  await page.getByTestId("task-input").fill("What does `README.md` say?");
  await page.getByTestId("task-submit").click();
  await expect(page).toHaveURL(/\/sessions\/[^/]+$/);

  // The answer streams in: seen while it is being written, shorter than it ends up.
  const streaming = page.getByTestId("answer-streaming");
  await expect(streaming).toBeVisible();
  await expect(streaming.locator(".text")).toContainText("Here is what I found");
  const partial = (await streaming.locator(".text").textContent()) ?? "";

  const answer = page.getByTestId("message-agent");
  await expect(answer).toContainText("README.md begins with: # Chat demo");
  await expect(streaming).toHaveCount(0);
  const whole = (await answer.locator(".text").textContent()) ?? "";
  expect(partial.length).toBeGreaterThan(0);
  expect(partial.length).toBeLessThan(whole.length);

  // The tool calls it made, under the answer; no intention tree, no approval.
  const tools = answer.getByTestId("answer-tool");
  await expect(tools).toHaveCount(2);
  await expect(tools.nth(0)).toContainText("fs.search");
  await expect(tools.nth(0)).toContainText("README.md");
  await expect(tools.nth(1)).toContainText("fs.read");
  await expect(tools.nth(1)).toHaveAttribute("data-status", "ok");
  await expect(intentions(page)).toHaveCount(0);
  await expect(page.getByTestId("approval-card")).toHaveCount(0);
  await expectRunStatus(page, "ANSWERED");
  await expect(page.getByTestId("message-switches").first()).toContainText("Chat · reasoning off");

  // The switches are the person's: a reload keeps them.
  await page.getByTestId("reasoning-switch").check();
  await page.reload();
  await expect(page.getByTestId("switch-bar")).toHaveAttribute("data-mode", "chat");
  await expect(page.getByTestId("switch-bar")).toHaveAttribute("data-reasoning", "on");
  await expect(page.getByTestId("message-agent")).toContainText("README.md begins with");

  // Back to Agent: a task runs the loop (decomposition to approve, then the tree).
  await page.getByTestId("mode-agent").click();
  await page.getByTestId("reasoning-switch").uncheck();
  await expect(page.getByTestId("task-submit")).toHaveText("Start");
  await page.getByTestId("task-input").fill("run `ls` and then run `pwd`");
  await page.getByTestId("task-submit").click();
  const card = approvalCard(page, "decomposition");
  await expect(card).toBeVisible();
  await card.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expect(intentions(page)).toHaveCount(3);
  await expect(page.getByTestId("message-switches").nth(1)).toContainText("Agent · reasoning off");

  await page.reload();
  await expect(page.getByTestId("switch-bar")).toHaveAttribute("data-mode", "agent");
  await expect(page.getByTestId("switch-bar")).toHaveAttribute("data-reasoning", "off");
});
