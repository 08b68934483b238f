import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/**
 * An Arbor server of a spec's own (on a spare port, with its own data directory), for what the shared
 * `webServer` cannot do: `kill -9` and restart, or run with the Docker engine or the model missing.
 */
export interface ArborServer {
  url: string;
  /** What the server printed so far (stdout and stderr), for a failing test's report. */
  output(): string;
  /** SIGKILL, like `kill -9`: no shutdown hook runs. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export async function startArborServer(options: {
  port: number;
  dataDir: string;
  modelUrl: string;
  keepData?: boolean;
  env?: Record<string, string>;
}): Promise<ArborServer> {
  const root = path.resolve(import.meta.dirname, "../..");
  const child = spawn(
    "bash",
    ["scripts/e2e-server.sh", String(options.port), options.dataDir, options.modelUrl],
    {
      cwd: root,
      env: { ...process.env, KEEP_DATA: options.keepData ? "1" : "0", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://localhost:${options.port}`;
  await waitUntilUp(`${url}/login`, child, () => output);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url,
    output: () => output,
    async kill9() {
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Arbor server exited early:\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  child.kill("SIGKILL");
  throw new Error(`Arbor server did not answer at ${url}:\n${output()}`);
}
