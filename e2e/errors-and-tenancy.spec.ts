import { expect, test } from "@playwright/test";
import { createProject, newUser, signIn, signUp, startTask } from "../testing/e2e/arbor";

test("a wrong password is refused with a clear message", async ({ page }) => {
  const user = newUser("pw");
  await signUp(page, user);
  await page.context().clearCookies();
  await signIn(page, { email: user.email, password: "not-the-password" });
  await expect(page.getByTestId("login-error")).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/login/);
});

test("signing up twice with one email says so", async ({ page }) => {
  const user = newUser("twice");
  await signUp(page, user);
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByTestId("tab-sign-up").click();
  await page.getByTestId("name").fill(user.name);
  await page.getByTestId("email").fill(user.email);
  await page.getByTestId("password").fill(user.password);
  await page.getByTestId("submit-login").click();
  await expect(page.getByTestId("login-error")).toContainText("already exists");
});

test("pages need a signed-in user", async ({ page }) => {
  await page.goto("/projects");
  await expect(page).toHaveURL(/\/login$/);
});

test("an unknown project id shows not found, not a crash", async ({ page }) => {
  await signUp(page, newUser("lost"));
  await page.goto("/projects/does-not-exist");
  await expect(page.getByTestId("not-found")).toContainText("Project not found.");
});

test("a second user cannot open the first user's project or session", async ({ page, browser }) => {
  await signUp(page, newUser("owner"));
  const projectId = await createProject(page, "Private project");
  const sessionUrl = await startTask(page, "run `echo private` and then run `echo data`");
  await expect(page.getByTestId("approval-card")).toBeVisible();

  const other = await browser.newContext();
  const intruder = await other.newPage();
  await signUp(intruder, newUser("intruder"));
  await expect(intruder.getByTestId("project-list").getByText("Private project")).toHaveCount(0);
  await intruder.goto(`/projects/${projectId}`);
  await expect(intruder.getByTestId("not-found")).toContainText("Project not found.");
  await intruder.goto(new URL(sessionUrl).pathname);
  await expect(intruder.getByTestId("not-found")).toContainText("Session not found.");
  await expect(intruder.getByTestId("approval-card")).toHaveCount(0);
  await other.close();
});

test("importing a repository that cannot be cloned explains why and creates nothing", async ({ page }) => {
  await signUp(page, newUser("importer"));
  await page.getByTestId("project-name").fill("Broken import");
  await page.getByTestId("project-import-toggle").check();
  await page.getByTestId("project-source").fill("file:///nonexistent/repo.git");
  await page.getByTestId("create-project").click();
  await expect(page.getByTestId("project-error")).toContainText("Could not import the repository");
  await expect(page.getByTestId("project-list").getByText("Broken import")).toHaveCount(0);
  await expect(page.getByTestId("project-name")).toHaveValue("Broken import");
});
