import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { createProject, expectRunStatus, newUser, signUp, startTask } from "../testing/e2e/arbor";

/** The database the suite's server writes (see playwright.config.ts): the figures must match it. */
const DB_FILE = path.resolve(".e2e/main/arbor.db");

function teamFigures(email: string) {
  const db = new Database(DB_FILE, { readonly: true, fileMustExist: true });
  try {
    const scope = `FROM Run r JOIN Session s ON s.id = r.sessionId JOIN Project p ON p.id = s.projectId
      JOIN Membership m ON m.teamId = p.teamId JOIN User u ON u.id = m.userId WHERE u.email = ?`;
    const count = (sql: string) => (db.prepare(sql).get(email) as { n: number }).n;
    return {
      runs: count(`SELECT count(*) AS n ${scope}`),
      verified: count(`SELECT count(*) AS n ${scope} AND r.status = 'VERIFIED'`),
      failed: count(`SELECT count(*) AS n ${scope} AND r.status = 'FAILED'`),
      approvals: count(
        `SELECT count(*) AS n FROM Approval a JOIN Run r ON r.id = a.runId JOIN Session s ON s.id = r.sessionId
         JOIN Project p ON p.id = s.projectId JOIN Membership m ON m.teamId = p.teamId
         JOIN User u ON u.id = m.userId WHERE u.email = ?`,
      ),
    };
  } finally {
    db.close();
  }
}

test("the team dashboard shows what the agent did, and every figure matches the stored sessions", async ({
  page,
}) => {
  const user = newUser("dana");
  await signUp(page, user);
  await page.getByTestId("nav-dashboard").click();
  await expect(page.getByTestId("dashboard-empty")).toBeVisible();
  await expect(page.getByTestId("dash-success-rate-value")).toHaveText("—");

  const projectId = await createProject(page, "Dashboard demo");
  await startTask(page, "run `echo one` and then run `echo two`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");

  await page.goto(`/projects/${projectId}`);
  await startTask(page, "run `echo starting; exit 3` and then run `echo never reached`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "FAILED");

  await page.getByTestId("nav-dashboard").click();
  const stored = teamFigures(user.email);
  expect(stored).toEqual({ runs: 2, verified: 1, failed: 1, approvals: 2 });
  await expect(page.getByTestId("dash-runs-total-value")).toHaveText(String(stored.runs));
  await expect(page.getByTestId("dash-runs-total")).toContainText(
    `${stored.verified} verified · ${stored.failed} failed`,
  );
  await expect(page.getByTestId("dash-success-rate-value")).toHaveText("50%");
  await expect(page.getByTestId("dash-approvals-asked-value")).toHaveText(String(stored.approvals));
  await expect(page.getByTestId("dash-approvals-asked")).toContainText("2 approved · 0 rejected · 0 waiting");
  await expect(page.getByTestId("failure-reasons")).toContainText("exit code 3");
  await expect(page.getByTestId("cost-by-member")).toContainText(user.name);
  await expect(page.getByTestId("chart-runs").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByRole("img", { name: /Runs per day over 30 days, 2 in all/ })).toBeVisible();
});
