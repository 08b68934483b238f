/**
 * What reaches the browser bundle (issue #18), for dependency-cruiser: the same files as
 * .dependency-cruiser.cjs, with type-only imports left out (the bundler erases them), so a client
 * file's `import type { AppRouter }` does not count as shipping the router. `npm run deps:report` runs it.
 */
const base = require("./.dependency-cruiser.cjs");
const { CLIENT, SERVER_ONLY } = require("./scripts/layers/layers.cjs");

const NODE_BUILTINS = [
  "fs",
  "fs/promises",
  "child_process",
  "net",
  "os",
  "path",
  "crypto",
  "http",
  "https",
  "stream",
  "worker_threads",
  "zlib",
  "dns",
  "tls",
];

module.exports = {
  forbidden: [
    {
      name: "browser-reaches-server-only",
      comment:
        "No chain of run-time imports leads from a client file to a module that must stay on the server.",
      severity: "error",
      from: { path: CLIENT },
      to: { path: `^(${SERVER_ONLY.join("|")})`, reachable: true },
    },
    {
      name: "browser-reaches-node-builtin",
      comment: "No chain of run-time imports leads from a client file to a Node.js built-in module.",
      severity: "error",
      from: { path: CLIENT },
      to: { path: `^(node:)?(${NODE_BUILTINS.join("|")})$`, reachable: true },
    },
  ],
  options: { ...base.options, tsPreCompilationDeps: false },
};
