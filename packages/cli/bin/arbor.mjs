#!/usr/bin/env node
// The `arbor` command. It runs the TypeScript sources through tsx (no build step): the CLI shares the
// server's pure session fold (server/domain/session) so the tree it prints is the browser's, and
// those files import each other through the repository's `@/` path alias, which tsx resolves from
// the repository's tsconfig.json wherever the command is started.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const here = path.dirname(fileURLToPath(import.meta.url));
register({ tsconfig: path.resolve(here, "../../../tsconfig.json") });
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv);
