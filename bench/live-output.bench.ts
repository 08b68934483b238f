/**
 * Issue #14's live output goal: "command output first byte → browser while a command runs, under
 * 100 ms p50". Starts the production build (it must exist: `npx next build`) on its own port with the
 * built-in offline model, signs up in Debian's Chromium, and runs a command in a real sandbox that
 * prints the time (ms since the epoch, the host's clock: a container shares it) every 400 ms. The page
 * notes when each printed line first appears in the running cycle's live lines (a MutationObserver,
 * same clock), so each line is one sample of "printed in the sandbox → on screen": the persistent
 * shell, the exec stream, the throttle, the SSE subscription and React's render together.
 * Baseline, same run: when the same lines reach the page without live output — in the stored result,
 * which arrives when the command ends (how the page worked before).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { startBenchServer } from "../testing/bench/arbor-server";

const PORT = 3292 + Number(process.env.ARBOR_E2E_PORT_OFFSET ?? 0);
const DATA_DIR = path.resolve(".e2e/bench-live-output");
const BASE = `http://localhost:${PORT}`;
const LINES = 20;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

function startServer(): Promise<ChildProcess> {
  return startBenchServer(PORT, DATA_DIR);
}

async function signUpAndOpenProject(page: Page) {
  await page.goto(`${BASE}/login`);
  await page.getByTestId("tab-sign-up").click();
  await page.getByTestId("name").fill("Bench");
  await page.getByTestId("email").fill(`bench-${Date.now()}@example.com`);
  await page.getByTestId("password").fill("bench-password-1");
  await page.getByTestId("submit-login").click();
  await page.waitForURL(/\/projects$/);
  await page.getByTestId("project-name").fill("Live output bench");
  await page.getByTestId("create-project").click();
  await page.getByTestId("project-title").waitFor();
}

/**
 * Records, in the page, when each printed timestamp first shows in the live lines and in the stored
 * output. A string, not a function: tsx would wrap a function's inner names in a helper the page lacks.
 */
const WATCH_LINES = `(() => {
  const seen = { live: {}, stored: {} };
  window.__seen = seen;
  const selectors = { live: '[data-testid="cycle-live-output"]', stored: '[data-testid="cycle-output"]' };
  new MutationObserver(() => {
    const now = Date.now();
    for (const kind of ["live", "stored"]) {
      for (const node of document.querySelectorAll(selectors[kind])) {
        for (const line of (node.textContent || "").split("\\n")) {
          if (/^\\d{13}$/.test(line) && seen[kind][line] === undefined) seen[kind][line] = now;
        }
      }
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

async function main() {
  if (!existsSync(".next/BUILD_ID")) throw new Error("no production build: run `npx next build` first");
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage();
    await signUpAndOpenProject(page);
    const steps = Array.from({ length: LINES }, (_, i) => i + 1).join(" ");
    await page.getByTestId("task-input").fill(`run \`for i in ${steps}; do date +%s%3N; sleep 0.4; done\``);
    await page.getByTestId("task-submit").click();
    await page.waitForURL(/\/sessions\/[^/]+$/);
    await page.evaluate(WATCH_LINES);
    await page.getByTestId("approve").click();
    await page.getByTestId("cycle-output").first().waitFor({ state: "attached", timeout: 120_000 });
    await page.waitForFunction(
      (count) =>
        Object.keys((window as unknown as { __seen: { stored: object } }).__seen.stored).length >= count,
      LINES,
    );
    const seen = await page.evaluate(
      () =>
        (window as unknown as { __seen: { live: Record<string, number>; stored: Record<string, number> } })
          .__seen,
    );
    const live = Object.entries(seen.live).map(([printed, at]) => at - Number(printed));
    const stored = Object.entries(seen.stored).map(([printed, at]) => at - Number(printed));
    if (live.length < LINES / 2) throw new Error(`only ${live.length} of ${LINES} lines were seen live`);
    const p50 = percentile(live, 0.5);
    const base = percentile(stored, 0.5);
    console.log(`${`measure (${LINES} lines printed 400 ms apart, printed → on screen)`.padEnd(64)} ms`);
    console.log(`${"baseline: the line in the stored result (p50)".padEnd(64)} ${base.toFixed(0)}`);
    console.log(`${"live output (p50)".padEnd(64)} ${p50.toFixed(0)} (${(p50 / base).toFixed(3)}× baseline)`);
    console.log(`${"live output (p90)".padEnd(64)} ${percentile(live, 0.9).toFixed(0)}`);
    console.log(`${"lines seen live".padEnd(64)} ${live.length} of ${LINES}`);
    console.log(`goal first byte → browser < 100 ms p50: ${p50 < 100 ? "met" : "missed"}`);
  } finally {
    await browser.close();
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
