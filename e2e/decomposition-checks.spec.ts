import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { child, createProject, expectRunStatus, newUser, signUp, startTask } from "../testing/e2e/arbor";

/**
 * Issue #15 (items 2, 3, 5) in Chromium: a node:test project whose `sum.js` subtracts (a comment
 * already says "a + b"). Before it is approved, the decomposition card lists each child's exact
 * checks: the named one, the child's own command, and the project's detected tests scoped to the
 * target as the fallback, and the task's own check at integration. Approving the card binds them: the
 * detected tests then run before the work without a card of their own (red), after the edit (green)
 * and at integration — the node shows red → green, and no check asks.
 */
function sumProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-card-checks-"));
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify({ name: "sum", private: true, scripts: { test: "node --test" } })}\n`,
    "sum.js": "// sum returns a + b\nexports.sum = (a, b) => a - b;\n",
    "test/sum.test.js": [
      'const test = require("node:test");',
      'const assert = require("node:assert");',
      'const { sum } = require("../sum");',
      'test("adds two numbers", () => assert.strictEqual(sum(1, 2), 3));',
      "",
    ].join("\n"),
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
  git("init", "-q", "--initial-branch=main");
  git("add", ".");
  git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "sum subtracts");
  return dir;
}

const DETECTED = "node --test --test-reporter=tap test/sum.test.js";

test("the decomposition card lists each child's exact checks, and approving it binds them", async ({
  page,
}) => {
  await signUp(page, newUser("card-checks"));
  await createProject(page, "Card checks", `file://${sumProject()}`);
  await startTask(page, "replace `a - b` with `a + b` in `sum.js` and then run `ls sum.js`");

  const card = page.locator('[data-testid="approval-card"][data-kind="decomposition"]');
  const checks = card.getByTestId("child-checks");
  await expect(checks).toHaveCount(2);
  // Child 1: its named check, and the project's tests for sum.js as the fallback.
  await expect(checks.nth(0)).toContainText("These checks will run without asking");
  await expect(checks.nth(0).getByTestId("child-check-command")).toHaveText([
    "grep -n -F -m 3 -- 'a + b' sum.js",
    DETECTED,
  ]);
  await expect(checks.nth(0).getByTestId("child-check-fallback")).toContainText(
    "If these are already green before any work",
  );
  // Child 2 is itself a command: exactly that command, and no fallback.
  await expect(checks.nth(1).getByTestId("child-check-command")).toHaveText(["ls sum.js"]);
  await expect(checks.nth(1).getByTestId("child-check-fallback")).toHaveCount(0);
  // The task's own check at integration (nothing checkable named: the project's tests), listed too.
  await expect(card.getByTestId("integration-check-command")).toHaveText([DETECTED]);
  // The regression guard (the project's whole test command) is listed, and the approval covers it.
  await expect(card.getByTestId("guard-check-command")).toHaveText("npm test -- --test-reporter=tap");
  await card.getByTestId("approve").click();

  // The edit asks (a write); the detected tests never ask: the card's approval covers them.
  const write = page.locator('[data-testid="approval-card"][data-kind="tool"]');
  await write.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expect(page.locator('[data-testid="approval-card"][data-kind="command"]')).toHaveCount(0);
  await expect(page.getByTestId("regression-guard")).toHaveAttribute("data-after", "passed");
  await expect(child(page, 0).getByTestId("contract-detected-tests")).toContainText(
    "Every named check was already green before any work",
  );
  await expect(child(page, 0).getByTestId("intention-evidence")).toHaveAttribute(
    "data-evidence",
    "red-to-green",
  );
});
