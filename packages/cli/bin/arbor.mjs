#!/usr/bin/env node
// The `arbor` command. Installed from the package, it runs the bundle (dist/arbor.mjs, made by
// build.mjs when the package is packed). In the repository it runs the TypeScript sources through
// tsx instead (no build step): the CLI shares the server's pure session fold (server/domain/session)
// so the tree it prints is the browser's, and those files import each other through the repository's
// `@/` path alias, which tsx resolves from the repository's tsconfig.json wherever it is started.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const sources = path.resolve(here, "../src/main.ts");

if (existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.resolve(here, "../../../tsconfig.json") });
  const { main } = await import("../src/main.ts");
  process.exitCode = await main(process.argv);
} else {
  await import("../dist/arbor.mjs");
}
