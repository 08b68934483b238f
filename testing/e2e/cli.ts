import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

/** The `arbor` command as a person runs it from the repository: its bin, Node, a config dir of its own. */
const BIN = path.resolve("packages/cli/bin/arbor.mjs");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cliHome(): string {
  return mkdtempSync(path.join(tmpdir(), "arbor-cli-"));
}

function cliEnv(configDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ARBOR_CONFIG_DIR: configDir, ...extra };
}

function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Runs `arbor <args>` without a terminal (pipes), as a CI job does; `input` is its stdin. */
export function arbor(configDir: string, args: string[], input = ""): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: cliEnv(configDir),
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin?.end(input);
  return collect(child);
}

/**
 * Runs `arbor <args>` inside a pseudo-terminal (`script`, no native module), answering each prompt
 * that contains `prompt` with the next of `answers`. `script -e` returns the command's exit code.
 */
export async function arborInTerminal(
  configDir: string,
  args: string[],
  answers: { prompt: string; reply: string }[],
): Promise<CliResult & { answered: number }> {
  const argv = args.map((_, index) => `"$ARBOR_ARG_${index}"`).join(" ");
  const env = cliEnv(configDir, Object.fromEntries(args.map((arg, index) => [`ARBOR_ARG_${index}`, arg])));
  const child = spawn("script", ["-qefc", `"${process.execPath}" "${BIN}" ${argv}`, "/dev/null"], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let seen = "";
  let answered = 0;
  child.stdout?.on("data", (chunk: Buffer) => {
    seen += chunk.toString("utf8");
    const next = answers[answered];
    if (next && seen.includes(next.prompt)) {
      seen = "";
      answered += 1;
      child.stdin?.write(next.reply);
    }
  });
  const result = await collect(child);
  return { ...result, answered };
}

/** Makes an API token on the team page (the browser shows its secret once) and returns the secret. */
export async function createApiToken(
  page: Page,
  options: { name: string; role?: string; projects?: string[] },
): Promise<string> {
  await page.goto("/projects");
  await page.getByTestId("team-members-link").first().click();
  await page.getByTestId("api-token-name").fill(options.name);
  if (options.role) await page.getByTestId("api-token-role").selectOption(options.role);
  if (options.projects) await page.getByTestId("api-token-projects").selectOption(options.projects);
  await page.getByTestId("create-api-token").click();
  const secret = page.getByTestId("api-token-secret");
  await expect(secret).toHaveText(/^arb_/);
  return (await secret.textContent()) ?? "";
}
