import { expect, test } from "@playwright/test";
import { sessionWithFiles, treeFile, treeFolder, viewerOn } from "../testing/e2e/files-card";

/** The Files card's new file, rename and delete: a person's changes, through the same door as the agent's. */

test("a person creates, renames and deletes a file from the Files card; a viewer cannot", async ({
  page,
  browser,
}) => {
  const { owner, sessionUrl } = await sessionWithFiles(page, "filer", "Files project");
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
  await treeFolder(page, "docs").click();
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
  const { context: viewerContext, page: viewerPage } = await viewerOn(
    browser,
    owner,
    sessionUrl,
    "filesviewer",
  );
  await treeFile(viewerPage, "package.json").click();
  await expect(viewerPage.getByTestId("file-editor")).toHaveAttribute("data-path", "package.json");
  await expect(viewerPage.getByTestId("new-file")).toHaveCount(0);
  await expect(viewerPage.getByTestId("file-rename")).toHaveCount(0);
  await expect(viewerPage.getByTestId("file-delete")).toHaveCount(0);
  await viewerContext.close();
});

test("a person makes, renames and deletes a folder from the Files card; delete says how many files go; a viewer cannot", async ({
  page,
  browser,
}) => {
  const { owner, sessionUrl } = await sessionWithFiles(page, "folders", "Folders project");
  const files = page.getByTestId("files-panel");
  await expect(treeFile(page, "README.md")).toBeVisible();

  // New folder: made with a .gitkeep (git keeps folders only through files), and chosen in the tree.
  await files.getByTestId("new-folder").click();
  await page.getByTestId("new-folder-path").fill("notes");
  await page.getByTestId("new-folder-create").click();
  await expect(treeFolder(page, "notes")).toBeVisible();
  await expect(page.getByTestId("folder-actions")).toHaveAttribute("data-path", "notes");

  // Two files in it, one in a subfolder; the open file follows its folder's rename.
  for (const file of ["notes/a.md", "notes/deep/b.md"]) {
    await files.getByTestId("new-file").click();
    await page.getByTestId("new-file-path").fill(file);
    await page.getByTestId("new-file-create").click();
    await expect(page.getByTestId("file-editor")).toHaveAttribute("data-path", file);
  }
  await page.getByTestId("editor-content").click();
  await page.keyboard.type("deep thoughts");
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("dirty-marker")).toHaveCount(0);

  await treeFolder(page, "notes").click();
  await expect(page.getByTestId("folder-actions")).toHaveAttribute("data-path", "notes");
  await page.getByTestId("folder-rename").click();
  await page.getByTestId("folder-rename-path").fill("journal");
  await page.getByTestId("folder-rename-submit").click();
  await expect(page.getByTestId("folder-actions")).toHaveAttribute("data-path", "journal");
  await expect(page.getByTestId("file-editor")).toHaveAttribute("data-path", "journal/deep/b.md");
  await expect(page.getByTestId("editor-content")).toContainText("deep thoughts");
  await expect(treeFolder(page, "journal")).toBeVisible();
  await expect(treeFolder(page, "notes")).toHaveCount(0);

  // Renaming onto an existing name is refused and changes nothing.
  await page.getByTestId("folder-rename").click();
  await page.getByTestId("folder-rename-path").fill("README.md");
  await page.getByTestId("folder-rename-submit").click();
  await expect(page.getByTestId("folder-action-error")).toContainText("README.md already exists");
  await page.getByTestId("folder-rename-cancel").click();

  // Delete asks in a dialog with how many files go; Cancel keeps them, Delete removes the folder.
  await page.getByTestId("folder-delete").click();
  const dialog = page.getByRole("alertdialog", { name: "Delete folder journal" });
  await expect(dialog).toContainText("Delete journal/ and the 3 files in it?");
  await expect(dialog).toContainText("3 files and 2 folders will be deleted");
  await page.getByTestId("folder-delete-cancel").click();
  await expect(dialog).toHaveCount(0);
  await expect(treeFolder(page, "journal")).toBeVisible();
  await page.getByTestId("folder-delete").click();
  await dialog.getByTestId("folder-delete-confirm-submit").click();
  await expect(treeFolder(page, "journal")).toHaveCount(0);
  await expect(page.getByTestId("file-editor")).toHaveCount(0);
  await expect(page.getByTestId("folder-actions")).toHaveCount(0);

  // A viewer sees folders, and no way to make, rename or delete them.
  await files.getByTestId("new-folder").click();
  await page.getByTestId("new-folder-path").fill("kept");
  await page.getByTestId("new-folder-create").click();
  await expect(treeFolder(page, "kept")).toBeVisible();
  const { context: viewerContext, page: viewerPage } = await viewerOn(
    browser,
    owner,
    sessionUrl,
    "folderviewer",
  );
  await treeFolder(viewerPage, "kept").click();
  await expect(treeFile(viewerPage, "kept/.gitkeep")).toBeVisible();
  await expect(viewerPage.getByTestId("new-folder")).toHaveCount(0);
  await expect(viewerPage.getByTestId("folder-actions")).toHaveCount(0);
  await viewerContext.close();
});
