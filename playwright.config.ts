// e2e/replay.spec.ts seeds a database through server modules marked `import "server-only"` (via
// testing/bench/store-session.ts): this resolve hook resolves the marker as Next.js's server bundles
// do, in the runner and in every worker (both load this config first).
import "./testing/server-only/loader.mjs";
import { defineConfig } from "@playwright/test";
import { APP_PORT, FAKE_GITHUB_PORT, FAKE_MODEL_PORT, WEBHOOK_RECEIVER_PORT } from "./testing/e2e/ports";

/**
 * Real Chromium (Debian's, the test tool's own download is not reachable here), the production
 * build started by `webServer`, and the fake OpenAI-compatible model server the app talks to.
 */
export default defineConfig({
  testDir: "e2e",
  timeout: 120_000,
  expect: { timeout: 30_000 },
  // Two spec files at a time (the tests within a file stay in order): most of a spec's time is spent
  // waiting on sandboxes and the model, and each spec makes its own users, teams and projects. Specs
  // with a server of their own get one port per worker (testing/e2e/ports.ts) and their own data dir.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.CI
    ? [["list"], ["json", { outputFile: ".test-results/playwright.json" }]]
    : [["list"]],
  use: {
    baseURL: `http://localhost:${APP_PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: [
    {
      command: `npx --no-install tsx testing/fake-model/cli.ts --port ${FAKE_MODEL_PORT}`,
      url: `http://127.0.0.1:${FAKE_MODEL_PORT}/v1/models`,
      reuseExistingServer: false,
      stdout: "pipe",
      timeout: 60_000,
    },
    {
      // Pull requests go to the fake GitHub API e2e/git-remote.spec.ts starts (nothing else calls it);
      // webhooks may reach only e2e/team-webhooks.spec.ts's receiver (every other loopback address is refused).
      command: `ARBOR_GITHUB_API_URL=http://127.0.0.1:${FAKE_GITHUB_PORT} ARBOR_WEBHOOK_ALLOWED_HOSTS=127.0.0.1:${WEBHOOK_RECEIVER_PORT} bash scripts/e2e-server.sh ${APP_PORT} .e2e/main http://127.0.0.1:${FAKE_MODEL_PORT}/v1`,
      url: `http://localhost:${APP_PORT}/login`,
      reuseExistingServer: false,
      stdout: "pipe",
      timeout: 120_000,
    },
  ],
});
