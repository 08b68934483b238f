import { expect, test } from "@playwright/test";
import {
  approvalCard,
  child,
  createProject,
  expectRunStatus,
  newUser,
  openProjectSettings,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/**
 * Project intents (issue #5) in real Chromium against the production build, a real Docker sandbox and
 * the fake model server: create and edit an intent on the project page, see the mirrored file in a
 * session's workspace, and set a child's owned scope on a decomposition card before approving it.
 */
test("intents are edited on the project settings page and reach the session's workspace", async ({
  page,
}) => {
  await signUp(page, newUser("iris"));
  const projectId = await createProject(page, "Intents demo");
  await openProjectSettings(page);
  const card = page.getByTestId("intents-card");
  await expect(card).toContainText("No intents yet.");

  // Create.
  await card.getByTestId("intent-add").click();
  await expect(card.getByTestId("intent-form-id")).toHaveValue("INT-001");
  await card.getByTestId("intent-form-name").fill("Docs");
  await card.getByTestId("intent-form-scope").fill("docs/**");
  await card.getByTestId("intent-form-constraints").fill("Plain Markdown only");
  await card.getByTestId("intent-save").click();
  const row = card.locator('[data-testid="intent-row"][data-intent-id="INT-001"]');
  await expect(row.getByTestId("intent-name")).toHaveText("Docs");
  await expect(row.getByTestId("intent-scope")).toContainText("docs/**");
  await expect(card.getByTestId("intent-notice")).toContainText("INT-001 saved");

  // A glob that would leave the workspace is refused with a clear message, and nothing is lost.
  await card.getByTestId("intent-add").click();
  await expect(card.getByTestId("intent-form-id")).toHaveValue("INT-002");
  await card.getByTestId("intent-form-name").fill("Escape");
  await card.getByTestId("intent-form-scope").fill("../outside/**");
  await card.getByTestId("intent-save").click();
  await expect(card.getByTestId("intent-error")).toContainText("not a glob inside the workspace");
  await expect(card.getByTestId("intent-form-name")).toHaveValue("Escape");
  await card.getByTestId("intent-cancel").click();

  // Edit.
  await row.getByRole("button", { name: "Edit INT-001" }).click();
  await card.getByTestId("intent-form-name").fill("Docs and notes");
  await card.getByTestId("intent-form-scope").fill("docs/**\nnotes/**");
  await card.getByTestId("intent-form-status").selectOption("BLOCKED");
  await card.getByTestId("intent-save").click();
  await expect(row.getByTestId("intent-name")).toHaveText("Docs and notes");
  await expect(row.getByTestId("intent-scope")).toContainText("notes/**");
  await expect(row.getByTestId("intent-status")).toHaveText("Blocked");
  await page.reload();
  await expect(row.getByTestId("intent-name")).toHaveText("Docs and notes");

  // A session's workspace has them as .orchestration/active_intents.yaml.
  await startTask(page, "run `cat .orchestration/active_intents.yaml`");
  // `cat` is read-only, so the default checkpoints run it without asking.
  await expectRunStatus(page, "VERIFIED");
  const cycle = page.getByTestId("cycle").first();
  await cycle.locator("summary").click();
  const output = cycle.getByTestId("cycle-output");
  await expect(output).toContainText('id: "INT-001"');
  await expect(output).toContainText('name: "Docs and notes"');
  await expect(output).toContainText('- "notes/**"');
  await expect(output).toContainText('- "Plain Markdown only"');

  // Retired: still on the card, no longer selectable.
  await page.goto(`/projects/${projectId}/settings`);
  await row.getByRole("button", { name: "Retire INT-001" }).click();
  await expect(row.getByTestId("intent-status")).toHaveText("Retired");
  await expect(row.getByRole("button", { name: "Retire INT-001" })).toHaveCount(0);
});

test("a child's owned scope is edited on the decomposition card and approved with it", async ({ page }) => {
  await signUp(page, newUser("ivo"));
  await createProject(page, "Scopes demo");
  await startTask(page, "write notes in `notes/` and then run `ls notes`");

  const card = approvalCard(page, "decomposition");
  await expect(card.getByTestId("proposed-child")).toHaveCount(2);
  const scopes = card.getByTestId("child-scope");
  // The model proposed a scope for the first child; the second has none yet.
  await expect(scopes.nth(0)).toHaveValue("notes/**");
  await expect(scopes.nth(1)).toHaveValue("");
  await card.getByRole("textbox", { name: "Child 2: owned scope" }).fill("notes/** docs/*.md");
  await card.getByRole("textbox", { name: "Child 1: owned scope" }).fill("notes/**  src/notes.ts");
  await card.getByTestId("approve").click();
  await expect(card).toBeHidden();

  await expect(child(page, 0).getByTestId("intention-scope")).toContainText("scope: notes/** src/notes.ts");
  await expect(child(page, 0).getByTestId("intention-scope")).toContainText("approved by ivo");
  await expect(child(page, 1).getByTestId("intention-scope")).toContainText("scope: notes/** docs/*.md");

  // After a reload, the approved scopes are still there: they live in the session's log.
  await page.reload();
  await expect(child(page, 1).getByTestId("intention-scope")).toContainText("approved by ivo");
});
