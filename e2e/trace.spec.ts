import { expect, test } from "@playwright/test";
import {
  createProject,
  expectRunStatus,
  newUser,
  openProjectSettings,
  signUp,
  startTask,
} from "../testing/e2e/arbor";

/** The trace ledger: what each cycle wrote, exported as Agent Trace records. */
test("a run's writes are exported as Agent Trace records with line ranges and hashes", async ({ page }) => {
  await signUp(page, newUser("tracer"));
  await createProject(page, "Traced");
  await openProjectSettings(page);
  await page.getByTestId("checkpoint-commands").selectOption("never-ask");
  await page.getByTestId("save-checkpoints").click();
  await expect(page.getByTestId("checkpoints-saved")).toBeVisible();
  await startTask(page, "run `printf 'one\\ntwo\\n' > notes.txt` and then run `cat notes.txt`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");

  const download = page.waitForEvent("download");
  await page.getByTestId("export-trace").click();
  const file = await (await download).path();
  const { readFile } = await import("node:fs/promises");
  const lines = (await readFile(file, "utf8")).trim().split("\n");
  expect(lines).toHaveLength(1);
  const record = JSON.parse(lines[0] ?? "{}");
  expect(record.version).toBe("0.1");
  const notes = record.files.find((entry: { path: string }) => entry.path === "notes.txt");
  expect(notes.conversations[0].contributor.type).toBe("ai");
  expect(notes.conversations[0].ranges).toEqual([
    { start_line: 1, end_line: 2, content_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
  ]);
});
