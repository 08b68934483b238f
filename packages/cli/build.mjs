// Bundles the CLI into one file, dist/arbor.mjs, so the published package runs with plain `node`:
// no tsx, no repository (the server's pure session fold and the tool catalogue it shares are inlined
// through the repository's `@/` alias, and so are its npm dependencies). `npm pack` runs it (prepack).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));

await build({
  entryPoints: [path.join(here, "src/entry.ts")],
  outfile: path.join(here, "dist/arbor.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  tsconfig: path.resolve(here, "../../tsconfig.json"),
  // Dependencies written as CommonJS call require(); an ES module has none of its own.
  banner: {
    js: 'import { createRequire as arborCreateRequire } from "node:module"; const require = arborCreateRequire(import.meta.url);',
  },
  legalComments: "eof",
  logLevel: "warning",
});
