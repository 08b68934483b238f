import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Sandbox } from "@/server/sandbox/types";
import { PREFIX, ROOT } from "./docker";

/**
 * `@modelcontextprotocol/server-everything` from this checkout's node_modules, bundled into one file
 * (esbuild) so a test can copy it into a sandbox in a moment, standing in for the setup command's
 * `npm install` (README "MCP tool servers"). Bundled once per test process.
 */
export const EVERYTHING_PACKAGE = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);

/** Where `copyEverythingInto` puts it in the sandbox: run it as `node <this> stdio`. */
export const EVERYTHING_IN_SANDBOX = "/tmp/mcp/everything.mjs";

export function bundleEverything(): string {
  const bundle = path.join(tmpdir(), `${PREFIX}-everything.mjs`);
  if (existsSync(bundle)) return bundle;
  execFileSync(path.join(ROOT, "node_modules/.bin/esbuild"), [
    EVERYTHING_PACKAGE,
    "--bundle",
    "--minify",
    "--platform=node",
    "--format=esm",
    `--outfile=${bundle}`,
    "--log-level=warning",
    "--banner:js=import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  ]);
  return bundle;
}

export async function copyEverythingInto(box: Sandbox): Promise<void> {
  const copied = await box.exec(`mkdir -p /tmp/mcp && cat > ${EVERYTHING_IN_SANDBOX}`, {
    stdin: readFileSync(bundleEverything(), "utf8"),
  });
  if (copied.exitCode !== 0)
    throw new Error(`could not copy the MCP server into the sandbox: ${copied.stderr}`);
}
