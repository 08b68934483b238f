import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { child, createProject, expectRunStatus, newUser, signUp, startTask } from "../testing/e2e/arbor";

/**
 * Issue #15 items 1 and 4 in Chromium: a pytest project whose `calc.py` subtracts (a comment already
 * says "a + b"). The decomposition card lists the project's tests for `calc.py` in the form Arbor
 * runs them, with pytest's JUnit XML on stdout, and approving the card binds exactly that command.
 * The node then shows the counts read from the report and the exact command that ran.
 */
function calcProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-test-reports-"));
  const files: Record<string, string> = {
    "calc.py": "# add returns a + b\ndef add(a, b):\n    return a - b\n",
    "test_calc.py": [
      "import pytest",
      "from calc import add",
      "",
      "def test_add():",
      "    assert add(1, 2) == 3",
      "",
      "def test_add_zero():",
      "    assert add(0, 0) == 0",
      "",
      '@pytest.mark.skip(reason="later")',
      "def test_later():",
      "    pass",
      "",
    ].join("\n"),
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
  git("init", "-q", "--initial-branch=main");
  git("add", ".");
  git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "calc subtracts");
  return dir;
}

const RUNS = "python3 -m pytest -q test_calc.py --junitxml=/dev/stdout";

test("a pytest check runs with its JUnit reporter: on the card, bound by approval, counts on the node", async ({
  page,
}) => {
  await signUp(page, newUser("test-reports"));
  await createProject(page, "Test reports", `file://${calcProject()}`);
  await startTask(page, "replace `a - b` with `a + b` in `calc.py` and then run `ls calc.py`");

  const card = page.locator('[data-testid="approval-card"][data-kind="decomposition"]');
  const checks = card.getByTestId("child-checks");
  await expect(checks).toHaveCount(2);
  await expect(checks.nth(0).getByTestId("child-check-command")).toHaveText([
    "grep -n -F -m 3 -- 'a + b' calc.py",
    RUNS,
  ]);
  await expect(card.getByTestId("integration-check-command")).toHaveText([RUNS]);
  await card.getByTestId("approve").click();

  // The edit asks (a write); the tests never ask: the card's approval covers exactly RUNS.
  await page.locator('[data-testid="approval-card"][data-kind="tool"]').getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expect(page.locator('[data-testid="approval-card"][data-kind="command"]')).toHaveCount(0);
  const first = child(page, 0);
  await expect(first.getByTestId("intention-evidence")).toHaveAttribute("data-evidence", "red-to-green");
  const counts = first.getByTestId("criterion-tests").last();
  await expect(counts).toContainText("2 passed, 0 failed, 1 skipped");
  await expect(counts).toContainText("pytest, from its report");
  await expect(first.getByTestId("check-ran-command").last()).toContainText(RUNS);
});
