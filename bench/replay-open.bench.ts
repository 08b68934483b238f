/**
 * Issue #6's replay goal end to end: "a 10 000-event session opens with first paint in under 1 s".
 * Starts the production build (it must exist: `npx next build`) on its own port and database, signs
 * up in Debian's Chromium, stores a 10 000-event session and a 100-event one (the baseline, same run),
 * then opens each replay page and measures, inside the page, the time from navigation start to the
 * first paint of the tree — the log downloaded (preloaded by the page's HTML), folded and rendered.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { startBenchServer } from "../testing/bench/arbor-server";
import { storeSession } from "../testing/bench/store-session";

/** Above the end-to-end ports (3100–3195 with any ARBOR_E2E_PORT_OFFSET); the offset keeps parallel runs apart. */
const PORT = 3290 + Number(process.env.ARBOR_E2E_PORT_OFFSET ?? 0);
const DATA_DIR = path.resolve(".e2e/bench-replay");
const BASE = `http://localhost:${PORT}`;
const SAMPLES = 5;

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function startServer(): Promise<ChildProcess> {
  return startBenchServer(PORT, DATA_DIR);
}

async function signUp(page: Page, email: string) {
  await page.goto(`${BASE}/login`);
  await page.getByTestId("tab-sign-up").click();
  await page.getByTestId("name").fill("Bench");
  await page.getByTestId("email").fill(email);
  await page.getByTestId("password").fill("bench-password-1");
  await page.getByTestId("submit-login").click();
  await page.waitForURL(/\/projects$/);
}

/** Milliseconds from navigation start to the replay's tree on screen, measured by the page's clock. */
async function firstPaint(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForSelector('[data-testid="replay-position"]', { timeout: 60_000 });
  return page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now()))),
      ),
  );
}

async function main() {
  if (!existsSync(".next/BUILD_ID")) throw new Error("no production build: run `npx next build` first");
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage();
    const email = `bench-${Date.now()}@example.com`;
    await signUp(page, email);
    const dbFile = path.join(DATA_DIR, "arbor.db");
    const small = await storeSession(dbFile, email, 100, BASE);
    const big = await storeSession(dbFile, email, 10_000, BASE);
    await firstPaint(page, small); // warm the route's code once
    const smallMs: number[] = [];
    const bigMs: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      smallMs.push(await firstPaint(page, small));
      bigMs.push(await firstPaint(page, big));
    }
    const s = median(smallMs);
    const b = median(bigMs);
    console.log(`${"measure (median of 5, navigation → tree painted)".padEnd(52)} ms`);
    console.log(`${"baseline: replay of a 100-event session".padEnd(52)} ${s.toFixed(0)}`);
    console.log(
      `${"replay of a 10 000-event session".padEnd(52)} ${b.toFixed(0)} (${(b / s).toFixed(2)}× baseline)`,
    );
    console.log(`goal first paint < 1 s for 10 000 events: ${b < 1000 ? "met" : "missed"}`);
  } finally {
    await browser.close();
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
