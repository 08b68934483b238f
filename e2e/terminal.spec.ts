import net from "node:net";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import Database from "better-sqlite3";
import {
  createProject,
  expectRunStatus,
  newUser,
  openWorkspaceTab,
  signUp,
  startTask,
} from "../testing/e2e/arbor";
import { APP_PORT, FAKE_MODEL_PORT, SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";
import { screen, typeInTerminal } from "../testing/e2e/terminal";

/**
 * A watcher's card opens by itself, wherever it sits on the page; xterm draws nothing while it is off
 * screen, so the watcher looks at it, as a person would scroll to it.
 */
async function lookAtTerminal(page: Page) {
  await page.getByTestId("terminal-screen").scrollIntoViewIfNeeded();
}

/**
 * A TCP proxy in front of the app, so a test can cut a page's open streams the way a flaky network
 * does: `cut()` drops every connection and refuses new ones until `restore()`.
 */
async function cuttableProxy(targetPort: number) {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://localhost:${port}`,
    cut() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
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
  await openWorkspaceTab(page, "terminal");

  // Nothing streams until a terminal is in use: the card waits, closed.
  await expect(page.getByTestId("terminal-panel")).toHaveAttribute("data-shown", "false");
  await page.getByRole("button", { name: "Open terminal" }).click();
  await expect(page.getByTestId("terminal-view")).toHaveAttribute("data-state", "open");
  await expect(screen(page)).toContainText("/workspace$");
  await typeInTerminal(page, "echo hi-$((40+2)) from $(whoami)");
  await expect(screen(page)).toContainText("hi-42 from arbor");

  // Another page on the same session: the retained screen first, then the same live output.
  const second = await context.newPage();
  await second.goto(sessionUrl);
  await openWorkspaceTab(second, "terminal");
  // The log says a terminal is open, so the card shows itself.
  await expect(second.getByTestId("terminal-view")).toHaveAttribute("data-state", "open");
  await lookAtTerminal(second);
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
  await openWorkspaceTab(back, "terminal");
  await lookAtTerminal(back);
  await expect(screen(back)).toContainText("while-away-5");
  await expect(screen(back)).toContainText("hi-42 from arbor");
  await expect(back.getByTestId("terminal-connection")).toHaveText("live");

  // A dropped stream: the page says it is reconnecting, and on return shows what was typed meanwhile.
  const proxy = await cuttableProxy(APP_PORT);
  try {
    const flaky = await context.newPage();
    await flaky.goto(`${proxy.url}${new URL(sessionUrl).pathname}`);
    await openWorkspaceTab(flaky, "terminal");
    await lookAtTerminal(flaky);
    await expect(screen(flaky)).toContainText("while-away-5");
    await expect(flaky.getByTestId("terminal-connection")).toHaveText("live");
    proxy.cut();
    await expect(flaky.getByTestId("terminal-connection")).toHaveText("reconnecting…");
    await typeInTerminal(page, "echo during-the-cut-$((4+4))");
    await expect(screen(page)).toContainText("during-the-cut-8");
    proxy.restore();
    await expect(flaky.getByTestId("terminal-connection")).toHaveText("live", { timeout: 60_000 });
    await expect(screen(flaky)).toContainText("during-the-cut-8");
    await flaky.close();
  } finally {
    await proxy.close();
  }

  // Closing ends it for everyone.
  await page.getByRole("button", { name: "Close terminal" }).click();
  await expect(back.getByTestId("terminal-closed")).toContainText("closed");
  await expect(back.getByRole("button", { name: "Open again" })).toBeVisible();
});

/** Adds `viewerEmail` to the team of `ownerEmail` as a viewer (no invitation screen exists yet). */
function addViewer(ownerEmail: string, viewerEmail: string): void {
  const db = new Database(path.resolve(".e2e/main/arbor.db"), { fileMustExist: true });
  try {
    const idOf = (email: string) =>
      (db.prepare("SELECT id FROM User WHERE email = ?").get(email) as { id: string }).id;
    const owner = idOf(ownerEmail);
    db.prepare(
      `INSERT INTO Membership (id, userId, teamId, role, createdAt)
       SELECT ?, ?, teamId, 'viewer', createdAt FROM Membership WHERE userId = ? AND role = 'owner'`,
    ).run(`e2e-viewer-${Date.now()}`, idOf(viewerEmail), owner);
  } finally {
    db.close();
  }
}

test("a viewer watches the terminal live but cannot type in it", async ({ page, browser }) => {
  const owner = newUser("termowner");
  await signUp(page, owner);
  await createProject(page, "Watched terminal");
  const sessionUrl = await startTask(page, "run `ls`");
  await expectRunStatus(page, "VERIFIED");
  await openWorkspaceTab(page, "terminal");
  await page.getByRole("button", { name: "Open terminal" }).click();
  await expect(screen(page)).toContainText("/workspace$");

  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  const viewer = newUser("termviewer");
  await signUp(viewerPage, viewer);
  addViewer(owner.email, viewer.email);
  await viewerPage.goto(sessionUrl);
  await openWorkspaceTab(viewerPage, "terminal");
  await expect(viewerPage.getByTestId("terminal-view")).toHaveAttribute("data-state", "open");
  await expect(viewerPage.getByTestId("terminal-panel").getByText("watching")).toBeVisible();
  await expect(viewerPage.getByRole("button", { name: "Close terminal" })).toHaveCount(0);
  await lookAtTerminal(viewerPage);

  await typeInTerminal(page, "echo seen-by-viewer-$((1+1))");
  await expect(screen(viewerPage)).toContainText("seen-by-viewer-2");
  // The viewer's keys go nowhere: the owner's shell never gets them.
  await typeInTerminal(viewerPage, "echo typed-by-viewer");
  await typeInTerminal(page, "echo after-the-viewer");
  await expect(screen(page)).toContainText("after-the-viewer");
  await expect(screen(page)).not.toContainText("typed-by-viewer");
  await viewerContext.close();
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
    await openWorkspaceTab(page, "terminal");
    await page.getByRole("button", { name: "Open terminal" }).click();
    await expect(page.getByTestId("terminal-error")).toContainText("Docker");
    await expect(page.getByTestId("terminal-view")).toHaveAttribute("data-state", "idle");
  });
});
