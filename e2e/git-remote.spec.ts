import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectRunStatus, newUser, openProjectSettings, signUp, startTask } from "../testing/e2e/arbor";
import { FAKE_GITHUB_PORT, GIT_FCGI_PORT, GIT_SERVER_PORT } from "../testing/e2e/ports";
import { startTestGitServer, type TestGitServer } from "../testing/git-server/git-server";
import { startFakeGitHub } from "../testing/github-api/fake-pulls";

/**
 * The team's git remote in the browser (issue #21.3): a private repository on a real git server
 * (nginx + fcgiwrap + `git http-backend`, basic auth) is imported with its token, the session's saved
 * branch is pushed to it, a pull request is opened on the fake GitHub API (validated against GitHub's
 * OpenAPI description), and a push the remote refuses shows git's reason.
 */
let server: TestGitServer;
let github: Awaited<ReturnType<typeof startFakeGitHub>>;

test.beforeAll(async () => {
  server = await startTestGitServer({ http: GIT_SERVER_PORT, fcgi: GIT_FCGI_PORT });
  github = await startFakeGitHub(FAKE_GITHUB_PORT);
  await server.createRepository("team-app");
});
test.afterAll(async () => {
  await github?.close();
  await server?.stop();
});

test("a private remote: import with a token, push the branch, open a pull request, a refused push says why", async ({
  page,
}) => {
  await signUp(page, newUser("pusher"));
  await page.goto("/projects");
  await page.getByTestId("project-name").fill("Team app");
  await page.getByTestId("project-import-toggle").check();
  await page.getByTestId("project-source").fill(server.urlOf("team-app"));
  await page.getByTestId("project-import-credential-kind").selectOption("token");
  await page.getByTestId("project-import-credential-user").fill(server.user);
  await page.getByTestId("project-import-credential-token").fill(server.token);
  await page.getByTestId("create-project").click();
  await expect(page.getByTestId("project-title")).toHaveText("Team app");

  // The settings show that a token is set (its last 4 characters), never the token; mark it GitHub.
  await openProjectSettings(page);
  await expect(page.getByTestId("remote-current")).toContainText(
    `HTTPS token set (…${server.token.slice(-4)})`,
  );
  await expect(page.locator("body")).not.toContainText(server.token);
  await page.getByTestId("remote-provider").selectOption("github");
  await page.getByTestId("remote-save").click();
  await expect(page.getByTestId("remote-current")).toContainText("GitHub");
  await page.getByTestId("checkpoint-commands").selectOption("never-ask");
  await page.getByTestId("save-checkpoints").click();
  await expect(page.getByTestId("checkpoints-saved")).toBeVisible();

  await startTask(page, "run `printf 'hello\\n' > hello.txt` and then run `cat hello.txt`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await page.getByTestId("work-save").click();
  await expect(page.getByTestId("work-state")).toHaveAttribute("data-state", "saved");

  await page.getByTestId("work-push").click();
  await expect(page.getByTestId("work-push-result")).toHaveAttribute("data-pushed", "yes");
  const branch = (await page.getByTestId("work-state").textContent())?.match(/as branch (\S+) /)?.[1] ?? "";
  const upstream = path.join(server.dir, "repos", "team-app.git");
  expect(execFileSync("git", ["-C", upstream, "cat-file", "-p", `${branch}:hello.txt`]).toString()).toBe(
    "hello\n",
  );

  await page.getByTestId("work-open-pr").click();
  await expect(page.getByTestId("work-pr-result")).toContainText("Pull request #1 opened");
  expect(github.requests[0]?.body).toMatchObject({ head: branch, base: "main" });
  expect(String(github.requests[0]?.body.body)).toContain("/replay");

  // Someone else pushes to the branch: pushing again is refused, with git's reason, and nothing is forced.
  const other = await mkdtemp(path.join(tmpdir(), "arbor-e2e-other-"));
  try {
    const git = (args: string[]) =>
      execFileSync("git", ["-c", "user.name=O", "-c", "user.email=o@localhost", ...args], {
        cwd: other,
        stdio: "pipe",
      });
    git(["clone", "-q", "--branch", branch, upstream, "."]);
    git(["commit", "-q", "--allow-empty", "-m", "someone else"]);
    git(["push", "-q", "origin", branch]);
  } finally {
    await rm(other, { recursive: true, force: true });
  }
  await page.getByTestId("work-push").click();
  await expect(page.getByTestId("work-push-result")).toHaveAttribute("data-pushed", "no");
  await expect(page.getByTestId("work-push-result")).toContainText("non-fast-forward");
});
