import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import Database from "better-sqlite3";
import { createProject, expectRunStatus, newUser, signUp, startTask } from "./support/arbor";

/** The Files card's new file, rename and delete: a person's changes, through the same door as the agent's. */

function treeFile(page: Page, file: string) {
  return page.locator(`[data-testid="tree-file"][data-path="${file}"]`);
}

/** Adds `viewerEmail` to the team of `ownerEmail` as a viewer (no invitation screen in this test). */
function addViewer(ownerEmail: string, viewerEmail: string): void {
  const db = new Database(path.resolve(".e2e/main/arbor.db"), { fileMustExist: true });
  try {
    const idOf = (email: string) =>
      (db.prepare("SELECT id FROM User WHERE email = ?").get(email) as { id: string }).id;
    db.prepare(
      `INSERT INTO Membership (id, userId, teamId, role, createdAt)
       SELECT ?, ?, teamId, 'viewer', createdAt FROM Membership WHERE userId = ? AND role = 'owner'`,
    ).run(`e2e-files-viewer-${Date.now()}`, idOf(viewerEmail), idOf(ownerEmail));
  } finally {
    db.close();
  }
}

test("a person creates, renames and deletes a file from the Files card; a viewer cannot", async ({
  page,
  browser,
}) => {
  const owner = newUser("filer");
  await signUp(page, owner);
  await createProject(page, "Files project");
  const sessionUrl = await startTask(page, "run `ls`");
  await expectRunStatus(page, "VERIFIED");
  const files = page.getByTestId("files-panel");
  await expect(treeFile(page, "README.md")).toBeVisible();

  // A bad name is refused with the reason; a good one creates the file (and its folder) and opens it.
  await files.getByTestId("new-file").click();
  await page.getByTestId("new-file-path").fill("docs//todo.md");
  await page.getByTestId("new-file-create").click();
  await expect(page.getByTestId("new-file-error")).toContainText("empty folder name");
  await page.getByTestId("new-file-path").fill("docs/todo.md");
  await page.getByTestId("new-file-create").click();
  await expect(page.getByTestId("file-editor")).toHaveAttribute("data-path", "docs/todo.md");
  await files.locator('[data-testid="tree-folder"][data-path="docs"]').click();
  await expect(treeFile(page, "docs/todo.md")).toBeVisible();
  await page.getByTestId("editor-content").click();
  await page.keyboard.type("buy milk");
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("dirty-marker")).toHaveCount(0);

  // Rename: the editor follows the file to its new name, the tree shows it there and not before.
  await page.getByTestId("file-rename").click();
  await page.getByTestId("rename-path").fill("docs/done.md");
  await page.getByTestId("rename-submit").click();
  await expect(page.getByTestId("file-editor")).toHaveAttribute("data-path", "docs/done.md");
  await expect(page.getByTestId("editor-content")).toContainText("buy milk");
  await expect(treeFile(page, "docs/done.md")).toBeVisible();
  await expect(treeFile(page, "docs/todo.md")).toHaveCount(0);

  // Renaming onto an existing file is refused and changes nothing.
  await page.getByTestId("file-rename").click();
  await page.getByTestId("rename-path").fill("README.md");
  await page.getByTestId("rename-submit").click();
  await expect(page.getByTestId("file-action-error")).toContainText("README.md already exists");
  await page.getByTestId("rename-cancel").click();

  // Delete asks in a dialog naming the file; Cancel keeps it, Delete removes it and closes the editor.
  await page.getByTestId("file-delete").click();
  const dialog = page.getByRole("alertdialog", { name: "Delete docs/done.md" });
  await expect(dialog).toContainText("Delete docs/done.md?");
  await page.getByTestId("delete-cancel").click();
  await expect(dialog).toHaveCount(0);
  await expect(treeFile(page, "docs/done.md")).toBeVisible();
  await page.getByTestId("file-delete").click();
  await dialog.getByTestId("delete-confirm-submit").click();
  await expect(page.getByTestId("file-editor")).toHaveCount(0);
  await expect(treeFile(page, "docs/done.md")).toHaveCount(0);

  // A protected path asks before it is created, and only the confirmation creates it.
  await files.getByTestId("new-file").click();
  await page.getByTestId("new-file-path").fill("package.json");
  await page.getByTestId("new-file-create").click();
  await expect(page.getByTestId("new-file-confirm")).toContainText("package.json is protected");
  await expect(treeFile(page, "package.json")).toHaveCount(0);
  await page.getByTestId("new-file-confirm-create").click();
  await expect(page.getByTestId("file-editor")).toHaveAttribute("data-path", "package.json");
  await expect(treeFile(page, "package.json")).toBeVisible();

  // A viewer sees the files, and no way to create, rename or delete them.
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  const viewer = newUser("filesviewer");
  await signUp(viewerPage, viewer);
  addViewer(owner.email, viewer.email);
  await viewerPage.goto(sessionUrl);
  await treeFile(viewerPage, "package.json").click();
  await expect(viewerPage.getByTestId("file-editor")).toHaveAttribute("data-path", "package.json");
  await expect(viewerPage.getByTestId("new-file")).toHaveCount(0);
  await expect(viewerPage.getByTestId("file-rename")).toHaveCount(0);
  await expect(viewerPage.getByTestId("file-delete")).toHaveCount(0);
  await viewerContext.close();
});
