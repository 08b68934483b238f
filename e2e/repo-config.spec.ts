import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createProject, newUser, openProjectSettings, signUp } from "../testing/e2e/arbor";

/** A repository whose default branch holds `.arbor/config.yaml` with this text. */
function repositoryWithConfig(config: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-repo-config-"));
  mkdirSync(path.join(dir, ".arbor"));
  writeFileSync(path.join(dir, ".arbor", "config.yaml"), config);
  writeFileSync(path.join(dir, "README.md"), "# configured\n");
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
  git("init", "-q", "--initial-branch=main");
  git("add", ".");
  git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "config");
  return dir;
}

test("the settings page shows what .arbor/config.yaml on the default branch sets, and a broken file's problem", async ({
  page,
}) => {
  await signUp(page, newUser("repo-config"));
  await createProject(
    page,
    "Configured",
    `file://${repositoryWithConfig("project: Configured\nmodel:\n  name: repo-model\ncheckpoints:\n  commands: ask-always\nlimits:\n  maxIterations: 3\n  maxDepth: 11\n")}`,
  );
  await openProjectSettings(page);
  const card = page.getByTestId("repo-config");
  await expect(card.getByTestId("repo-config-model.modelName")).toContainText("repo-model");
  await expect(card.getByTestId("repo-config-checkpoints.commands")).toContainText("ask-always");
  await expect(card.getByTestId("repo-config-checkpoints.commands")).toContainText(
    "from .arbor/config.yaml (default branch)",
  );
  await expect(page.getByTestId("resolved-modelName")).toContainText(
    "from .arbor/config.yaml (default branch)",
  );
  // Only ever tighter: the lowered limit counts, the raised one is shown as ignored with the reason.
  await expect(card.getByTestId("repo-config-limits.maxIterations")).toContainText("3");
  await expect(card.getByTestId("repo-config-ignored-limits.maxDepth")).toContainText(
    "higher than the server's 10: a repository may only lower it",
  );
  await card.getByTestId("settings-sources").locator("summary").click();
  await expect(card.getByTestId("setting-network.agent.mode")).toContainText("off");
  await expect(card.getByTestId("setting-limits.maxIterations")).toContainText(
    ".arbor/config.yaml (default branch)",
  );

  await createProject(page, "Broken config", `file://${repositoryWithConfig("model:\n  apiKey: sk-nope\n")}`);
  await openProjectSettings(page);
  await expect(page.getByTestId("repo-config-problem")).toContainText(
    '.arbor/config.yaml on the default branch: model: Unrecognized key: "apiKey"',
  );
  await expect(page.getByTestId("resolved-modelName")).toContainText("from default");
});
