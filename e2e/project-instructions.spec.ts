import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createProject, newUser, signUp } from "../testing/e2e/arbor";

/** A repository with the project's agent rules at the root and a nested CLAUDE.md for one package. */
function repositoryWithInstructions(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-agents-md-"));
  const files: Record<string, string> = {
    "AGENTS.md": [
      "# House rules",
      "",
      "Keep **every** greeting lower-case.",
      "",
      "```sh",
      "npm test",
      "```",
      "",
      '<img src="x" onerror="document.title=\'pwned\'"> raw markup is shown as text, never run',
      "",
    ].join("\n"),
    "packages/api/CLAUDE.md": "Never change the public API.\n",
    "package.json": '{ "name": "rules", "scripts": { "test": "node --test" } }\n',
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
  git("init", "-q", "--initial-branch=main");
  git("add", ".");
  git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "rules");
  return dir;
}

test("the project page shows the default branch's AGENTS.md, rendered, and nested instruction files", async ({
  page,
}) => {
  await signUp(page, newUser("instructions"));
  await createProject(page, "Instructed", `file://${repositoryWithInstructions()}`);
  const card = page.getByTestId("project-instructions");
  const files = card.getByTestId("project-instructions-file");
  await expect(files).toHaveCount(2);
  await expect(files.nth(0)).toContainText("AGENTS.md");
  await expect(files.nth(0).getByRole("heading", { name: "House rules" })).toBeVisible();
  await expect(files.nth(0).locator("strong")).toHaveText("every");
  await expect(files.nth(0).locator("pre code")).toHaveText("npm test");
  await expect(files.nth(0).locator("img")).toHaveCount(0);
  await expect(files.nth(1)).toContainText("packages/api/CLAUDE.md");
  await expect(files.nth(1)).toContainText("Never change the public API.");
  expect(await page.title()).not.toBe("pwned");
});

test("a project without instruction files says so", async ({ page }) => {
  await signUp(page, newUser("no-instructions"));
  await createProject(page, "Plain");
  await expect(page.getByTestId("project-instructions-empty")).toBeVisible();
});
