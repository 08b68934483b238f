import { expect, test } from "@playwright/test";
import {
  approvalCard,
  child,
  createProject,
  expectRunStatus,
  newUser,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/**
 * Context that does not grow: the second child's act request shows its verified sibling as one line,
 * the node says so item by item, and a person restores the sibling so the next requests carry it in
 * full. The restore is in the log: a reload (a fresh fold) still lists it as restored.
 */
test("a person restores what a compression left out, and the node lists it as restored", async ({ page }) => {
  const user = newUser("restorer");
  await signUp(page, user);
  await createProject(page, "Context restore");
  await startTask(page, "create `a.txt` containing `one` and then create `b.txt` containing `two`");
  await approvalCard(page, "decomposition").getByTestId("approve").click();
  await expect(approvalCard(page, "tool").getByTestId("tool-path")).toHaveText("a.txt");
  await approvalCard(page, "tool").getByTestId("approve").click();

  // The second child's request was built while its write waits: the verified first child is one line.
  await expect(approvalCard(page, "tool").getByTestId("tool-path")).toHaveText("b.txt");
  const second = child(page, 1);
  await expect(second.getByTestId("intention-compressed")).toContainText("1 verified part as one line");
  await second.getByTestId("intention-compressed").click();
  const dropped = second.getByTestId("dropped-item");
  await expect(dropped).toHaveCount(1);
  await expect(dropped.getByTestId("dropped-label")).toHaveText("✓ create `a.txt` containing `one`");
  await dropped.getByTestId("restore-item").click();

  const restored = second.getByTestId("restored-item");
  await expect(restored).toHaveText(
    `restored by ${user.name}: ✓ create \`a.txt\` containing \`one\` (sent in full with the next requests)`,
  );
  await expect(second.getByTestId("dropped-item")).toHaveCount(0);

  await page.reload();
  await expect(child(page, 1).getByTestId("restored-item")).toContainText(`restored by ${user.name}`);
  await approvalCard(page, "tool").getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  // Once the run has ended nothing can be restored any more: no button is offered.
  await expect(page.getByTestId("restore-item")).toHaveCount(0);
});
