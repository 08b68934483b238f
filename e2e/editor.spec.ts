import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { sessionWithFiles, viewerOn } from "../testing/e2e/files-card";

/** The Files card: a person edits the session's workspace through the same door as the agent. */

function editor(page: Page) {
  return page.getByTestId("editor-content");
}

async function openFile(page: Page, file: string): Promise<void> {
  await page.locator(`[data-testid="tree-file"][data-path="${file}"]`).click();
  await expect(page.getByTestId("file-editor")).toHaveAttribute("data-path", file);
  await expect(editor(page)).toBeVisible();
}

/** Clicks Reload and waits until the sandbox's version is in the editor. */
async function reload(page: Page, button = "file-reload"): Promise<void> {
  const loads = Number(await page.getByTestId("file-editor").getAttribute("data-loads"));
  await page.getByTestId(button).click();
  await expect(page.getByTestId("file-editor")).toHaveAttribute("data-loads", String(loads + 1));
}

/** Types at the end of the open document. */
async function typeAtEnd(page: Page, text: string): Promise<void> {
  await editor(page).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

test("a person edits a file, saves it with the keyboard, and the save is a human contribution; a conflict keeps their text", async ({
  page,
  browser,
}) => {
  const { owner, sessionUrl } = await sessionWithFiles(page, "editor", "Edited project");

  // The tree lists the workspace (never .git); a file opens in the editor with its language.
  const files = page.getByTestId("files-panel");
  await expect(files.locator('[data-testid="tree-file"][data-path="README.md"]')).toBeVisible();
  await expect(files.locator('[data-path=".git"]')).toHaveCount(0);
  await openFile(page, "README.md");
  await expect(page.getByTestId("code-editor")).toHaveAttribute("data-language", "markdown");
  await expect(page.getByTestId("dirty-marker")).toHaveCount(0);

  await typeAtEnd(page, "\nWritten by a person.");
  await expect(page.getByTestId("dirty-marker")).toBeVisible();
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("dirty-marker")).toHaveCount(0);
  await expect(page.getByTestId("save-error")).toHaveCount(0);

  // What is in the sandbox now: Reload reads it back.
  await reload(page);
  await expect(editor(page)).toContainText("Written by a person.");

  // The trace export has the person's lines, contributor human, named in the metadata.
  const download = page.waitForEvent("download");
  await page.getByTestId("export-trace").click();
  const lines = (await readFile(await (await download).path(), "utf8")).trim().split("\n");
  const human = lines
    .map((line) => JSON.parse(line))
    .find((record) => record.files.some((file: { path: string }) => file.path === "README.md"));
  expect(human.files[0].conversations[0].contributor).toEqual({ type: "human" });
  expect(human.metadata["dev.arbor"].author).toBe(owner.name);

  // The person keeps typing while the agent appends to the same file: the save is refused.
  await typeAtEnd(page, "\nMy second thought.");
  await page.getByTestId("task-input").fill("run `echo agent-was-here >> README.md`");
  await page.getByTestId("task-submit").click();
  await page.getByTestId("approve").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "VERIFIED");
  await page.getByTestId("file-save").click();
  await expect(page.getByTestId("file-conflict")).toContainText("changed in the sandbox since you opened it");
  await expect(editor(page)).toContainText("My second thought.");
  await expect(page.getByTestId("dirty-marker")).toBeVisible();

  // Reload shows the agent's version; the person's text can be put back and saved over it.
  await reload(page, "conflict-reload");
  await expect(editor(page)).toContainText("agent-was-here");
  await expect(editor(page)).not.toContainText("My second thought.");
  await page.getByTestId("put-back").click();
  await expect(editor(page)).toContainText("My second thought.");
  await page.getByTestId("file-save").click();
  await expect(page.getByTestId("dirty-marker")).toHaveCount(0);
  await expect(page.getByTestId("file-conflict")).toHaveCount(0);

  // A viewer of the team reads the file but cannot change or save it.
  const { context: viewerContext, page: viewerPage } = await viewerOn(
    browser,
    owner,
    sessionUrl,
    "editviewer",
  );
  await openFile(viewerPage, "README.md");
  await expect(editor(viewerPage)).toContainText("My second thought.");
  await expect(viewerPage.getByTestId("read-only-note")).toContainText(
    "viewers can open files but not save them",
  );
  await expect(viewerPage.getByTestId("file-save")).toHaveCount(0);
  await editor(viewerPage).click();
  await viewerPage.keyboard.type("viewer typing");
  await expect(editor(viewerPage)).not.toContainText("viewer typing");
  await expect(viewerPage.getByTestId("dirty-marker")).toHaveCount(0);
  await viewerContext.close();
});
