import path from "node:path";
import { type Browser, expect, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import {
  createProject,
  expectRunStatus,
  newUser,
  openWorkspaceTab,
  signUp,
  startTask,
  type TestUser,
} from "./arbor";

/** What the Files card's specs share: a session whose sandbox exists, its tree, and a viewer's page. */

export function treeFile(page: Page, file: string) {
  return page.locator(`[data-testid="tree-file"][data-path="${file}"]`);
}

export function treeFolder(page: Page, folder: string) {
  return page.locator(`[data-testid="tree-folder"][data-path="${folder}"]`);
}

/**
 * Signs up a new user, creates a project and runs `ls` (it only reads: it runs without asking, and the
 * run starts the session's sandbox), so the Files card has a workspace to show.
 */
export async function sessionWithFiles(
  page: Page,
  label: string,
  projectName: string,
): Promise<{ owner: TestUser; sessionUrl: string }> {
  const owner = newUser(label);
  await signUp(page, owner);
  await createProject(page, projectName);
  const sessionUrl = await startTask(page, "run `ls`");
  await expectRunStatus(page, "VERIFIED");
  await openWorkspaceTab(page, "files");
  return { owner, sessionUrl };
}

/** Adds `viewerEmail` to the team of `ownerEmail` as a viewer (no invitation screen in these tests). */
export function addViewer(ownerEmail: string, viewerEmail: string): void {
  const db = new Database(path.resolve(".e2e/main/arbor.db"), { fileMustExist: true });
  try {
    const idOf = (email: string) =>
      (db.prepare("SELECT id FROM User WHERE email = ?").get(email) as { id: string }).id;
    db.prepare(
      `INSERT INTO Membership (id, userId, teamId, role, createdAt)
       SELECT ?, ?, teamId, 'viewer', createdAt FROM Membership WHERE userId = ? AND role = 'owner'`,
    ).run(
      `e2e-viewer-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      idOf(viewerEmail),
      idOf(ownerEmail),
    );
  } finally {
    db.close();
  }
}

/**
 * A new user, made a viewer of the owner's team, on the session's page in a browser context of their
 * own. Close `context` when done.
 */
export async function viewerOn(
  browser: Browser,
  owner: TestUser,
  sessionUrl: string,
  label: string,
): Promise<{ context: Awaited<ReturnType<Browser["newContext"]>>; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const viewer = newUser(label);
  await signUp(page, viewer);
  addViewer(owner.email, viewer.email);
  await page.goto(sessionUrl);
  await openWorkspaceTab(page, "files");
  await expect(page.getByTestId("files-panel")).toBeVisible();
  return { context, page };
}
