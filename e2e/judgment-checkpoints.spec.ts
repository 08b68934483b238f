import { expect, test } from "@playwright/test";
import {
  approvalCard,
  createProject,
  expectRunStatus,
  newUser,
  setCheckpoints,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/** Seed 000's judgment questions asked of a person: the proposal, the evidence, and the last word. */

test("judge_action: overriding a SUCCESS to FAILURE makes the agent retry, and the verdicts are the person's", async ({
  page,
}) => {
  const user = newUser("judge");
  await signUp(page, user);
  await createProject(page, "Judged");
  await setCheckpoints(page, { commands: "never-ask", "judge-action": "ask" });
  await page.reload();
  await expect(page.getByTestId("checkpoint-judge-action")).toHaveValue("ask");

  await startTask(page, "run `echo judged`");
  const card = approvalCard(page, "judgment");
  await expect(card.getByTestId("proposed-verdict")).toHaveText("SUCCESS");
  await expect(card.getByTestId("question-evidence")).toContainText("$ echo judged");
  await expect(card.getByTestId("question-evidence")).toContainText("judged");
  await card.getByTestId("verdict-reason").fill("the output is not what I wanted");
  await card.getByTestId("verdict-FAILURE").click();

  // The override counts as a failed cycle: the agent tries again and the person is asked again.
  await expect(page.getByTestId("cycle")).toHaveCount(2);
  await expect(approvalCard(page, "judgment").getByTestId("proposed-verdict")).toHaveText("SUCCESS");
  await approvalCard(page, "judgment").getByTestId("approve").click();

  await expectRunStatus(page, "VERIFIED");
  const judgments = page.getByTestId("cycle-judgment");
  await expect(judgments.nth(0)).toHaveAttribute("data-status", "FAILURE");
  await expect(judgments.nth(1)).toHaveAttribute("data-status", "SUCCESS");
  await page.locator("details[data-testid=cycle]").evaluateAll((nodes) => {
    for (const node of nodes) (node as HTMLDetailsElement).open = true;
  });
  const judgedBy = page.getByTestId("cycle-judged-by");
  await expect(judgedBy.nth(0)).toContainText(
    `FAILURE by ${user.name}: ${user.name} overrode SUCCESS with FAILURE: the output is not what I wanted`,
  );
  await expect(judgedBy.nth(1)).toContainText(`SUCCESS by ${user.name}: ${user.name} confirmed SUCCESS`);
});

test("verify_integration: the person overrides the parent's verdict and the run fails with their reason", async ({
  page,
}) => {
  const user = newUser("integrator");
  await signUp(page, user);
  await createProject(page, "Integrated");
  await setCheckpoints(page, { commands: "never-ask", decompositions: "auto", "verify-integration": "ask" });

  await startTask(page, "run `echo one` and then run `echo two`");
  const card = approvalCard(page, "integration");
  await expect(card.getByTestId("proposed-verdict")).toHaveText("VERIFIED");
  await expect(card.getByTestId("question-evidence")).toContainText("child 1: run `echo one`");
  await expect(card.getByTestId("question-evidence")).toContainText("child 2: run `echo two`");
  await card.getByTestId("verdict-reason").fill("two must not follow one");
  await card.getByTestId("verdict-FAILED").click();

  await expectRunStatus(page, "FAILED");
  await expect(page.getByTestId("run-reason")).toContainText(
    `integration: ${user.name} overrode VERIFIED with FAILED: two must not follow one`,
  );
});

test("review_reflection: the person's edited reflection is kept for the next attempt", async ({ page }) => {
  await signUp(page, newUser("reviewer"));
  await createProject(page, "Reflected");
  await setCheckpoints(page, { commands: "never-ask", "review-reflection": "ask" });

  await startTask(page, "run `ls /no-such-dir`");
  const card = approvalCard(page, "reflection");
  await expect(card.getByTestId("reflection-input")).toHaveValue(/Failed \(exit code 2\)/);
  await card.getByTestId("reflection-input").fill("the directory does not exist; list / instead");
  await expect(card.getByTestId("approve")).toHaveText("Save edited reflection");
  await card.getByTestId("approve").click();
  await expect(page.getByTestId("cycle-reflection").first()).toHaveText(
    "the directory does not exist; list / instead",
  );
  await page.getByTestId("stop-run").click();
  await expectRunStatus(page, "STOPPED");
});
