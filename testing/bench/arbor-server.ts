import { type ChildProcess, spawn } from "node:child_process";

/**
 * Starts the production build on `port` with a fresh data directory and the offline model (the same
 * script the end-to-end suite uses), and waits until its login page answers (2 minutes at most).
 */
export async function startBenchServer(port: number, dataDir: string): Promise<ChildProcess> {
  const server = spawn("bash", ["scripts/e2e-server.sh", String(port), dataDir, ""], {
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`http://localhost:${port}/login`)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the Arbor server did not start within 2 minutes");
}
