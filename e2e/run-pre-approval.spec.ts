import { expect, test } from "@playwright/test";
import {
  approvalCard,
  child,
  createProject,
  expectRunStatus,
  newUser,
  setCheckpoints,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/** Seed 004's batch pre-approval for one run, granted on the first write's card. */
test("approving all file changes for the rest of the run lets the next write through, and says who granted it", async ({
  page,
}) => {
  const user = newUser("batcher");
  await signUp(page, user);
  await createProject(page, "Run pre-approval");
  // Decompositions approved automatically grant no scope: without the run's grant, each write asks.
  await setCheckpoints(page, { decompositions: "auto" });
  await startTask(page, "create `a.txt` containing `one` and then create `b.txt` containing `two`");

  const card = approvalCard(page, "tool");
  await expect(card.getByRole("heading")).toHaveText("Write this file?");
  await expect(card.getByTestId("tool-path")).toHaveText("a.txt");
  await expect(card.getByTestId("preapprove-run-label")).toContainText(
    "Approve all file changes for the rest of this run",
  );
  await card.getByTestId("preapprove-run").check();
  await card.getByTestId("approve").click();

  await expectRunStatus(page, "VERIFIED");
  await expect(approvalCard(page, "tool")).toHaveCount(0);
  await expect(page.getByTestId("run-preapproved")).toHaveText(
    `Pre-approved for this run: file changes (by ${user.name})`,
  );
  // The first write was answered on its card; only the second passed by the run's grant.
  await expect(child(page, 0).getByTestId("cycle-gate")).not.toContainText("pre-approved");
  await expect(child(page, 1).getByTestId("cycle-gate")).toHaveText(
    `approve: write tools are pre-approved for this run by ${user.name}.`,
  );

  // The grant belonged to that run: the next run's write asks again.
  await page.getByTestId("task-input").fill("create `c.txt` containing `three`");
  await page.getByTestId("task-submit").click();
  await expect(approvalCard(page, "tool").getByTestId("tool-path")).toHaveText("c.txt");
  await expect(page.getByTestId("run-preapproved")).toHaveCount(0);
  await approvalCard(page, "tool").getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
});

test("file changes granted from the session bar before the first card pass for that run", async ({
  page,
}) => {
  const user = newUser("bargrant");
  await signUp(page, user);
  await createProject(page, "Run pre-approval from the bar");
  await startTask(page, "create `d.txt` containing `four` and then create `e.txt` containing `five`");
  // The run waits on its decomposition: the person grants file changes for it meanwhile.
  await expect(approvalCard(page, "decomposition")).toBeVisible();
  await page.getByTestId("run-preapprove-write").click();
  await expect(page.getByTestId("run-preapproved")).toHaveText(
    `Pre-approved for this run: file changes (by ${user.name})`,
  );
  await expect(page.getByTestId("run-preapprove-write")).toHaveCount(0);
  await approvalCard(page, "decomposition").getByTestId("approve").click();

  await expectRunStatus(page, "VERIFIED");
  await expect(approvalCard(page, "tool")).toHaveCount(0);
  for (const index of [0, 1])
    await expect(child(page, index).getByTestId("cycle-gate")).toHaveText(
      `approve: write tools are pre-approved for this run by ${user.name}.`,
    );
  // An ended run offers no grant.
  await expect(page.getByTestId("run-preapprove-menu")).toHaveCount(0);
});
