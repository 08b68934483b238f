import { expect, type Page, test } from "@playwright/test";
import { createProject, expectRunStatus, newUser, signUp, startTask } from "./support/arbor";
import { FAKE_MODEL_PORT, SPARE_APP_PORT } from "./support/ports";
import { type ArborServer, startArborServer } from "./support/server";

/** The rendered terminal text (xterm's DOM renderer draws each row as text). */
function screen(page: Page) {
  return page.getByTestId("terminal-screen").locator(".xterm-rows");
}

async function typeInTerminal(page: Page, line: string): Promise<void> {
  await page.getByTestId("terminal-screen").click();
  await page.keyboard.type(line);
  await page.keyboard.press("Enter");
}

test("typing in the session's terminal runs in its sandbox; a second page sees the same output", async ({
  page,
  context,
}) => {
  await signUp(page, newUser("typist"));
  await createProject(page, "Terminal demo");
  // `ls` only reads: it runs without asking, and the run creates the session's sandbox.
  const sessionUrl = await startTask(page, "run `ls`");
  await expectRunStatus(page, "VERIFIED");

  const panel = page.getByTestId("terminal-panel");
  await expect(panel).toHaveAttribute("data-state", "idle");
  await page.getByRole("button", { name: "Open terminal" }).click();
  await expect(panel).toHaveAttribute("data-state", "open");
  await expect(screen(page)).toContainText("/workspace$");
  await typeInTerminal(page, "echo hi-$((40+2)) from $(whoami)");
  await expect(screen(page)).toContainText("hi-42 from arbor");

  // Another page on the same session: the retained screen first, then the same live output.
  const second = await context.newPage();
  await second.goto(sessionUrl);
  await expect(second.getByTestId("terminal-panel")).toHaveAttribute("data-state", "open");
  await expect(screen(second)).toContainText("hi-42 from arbor");
  await typeInTerminal(page, "echo shared-$((6*7))");
  await expect(screen(second)).toContainText("shared-42");
  await expect(screen(page)).toContainText("shared-42");

  // A watcher that leaves and comes back (a reload) gets the retained screen, including what it missed.
  await second.close();
  await typeInTerminal(page, "echo while-away-$((2+3))");
  await expect(screen(page)).toContainText("while-away-5");
  const back = await context.newPage();
  await back.goto(sessionUrl);
  await expect(screen(back)).toContainText("while-away-5");
  await expect(screen(back)).toContainText("hi-42 from arbor");
  await expect(back.getByTestId("terminal-connection")).toHaveText("live");

  // Closing ends it for everyone.
  await page.getByRole("button", { name: "Close terminal" }).click();
  await expect(back.getByTestId("terminal-closed")).toContainText("closed");
  await expect(back.getByRole("button", { name: "Open again" })).toBeVisible();
});

test.describe("without a Docker engine", () => {
  let server: ArborServer | null = null;
  test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
  test.afterEach(async () => {
    await server?.stop();
    server = null;
  });

  test("opening the terminal says the engine is not reachable", async ({ page }) => {
    server = await startArborServer({
      port: SPARE_APP_PORT,
      dataDir: ".e2e/terminal-no-docker",
      modelUrl: `http://127.0.0.1:${FAKE_MODEL_PORT}/v1`,
      env: { DOCKER_HOST: "unix:///tmp/arbor-no-such-docker.sock" },
    });
    await signUp(page, newUser("nodockerterm"));
    await createProject(page, "No docker terminal");
    await startTask(page, "run `ls`");
    await expectRunStatus(page, "FAILED");
    await page.getByRole("button", { name: "Open terminal" }).click();
    await expect(page.getByTestId("terminal-error")).toContainText("Docker");
    await expect(page.getByTestId("terminal-panel")).toHaveAttribute("data-state", "idle");
  });
});
