/**
 * The facts both dependency-cruiser configs share (.dependency-cruiser.cjs, .dependency-cruiser.runtime.cjs):
 * Arbor's layers, the files the browser runs, the modules that must stay on the server, test files.
 */
const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");

/** A regular expression matching exactly these paths (relative, forward slashes). */
const anyOf = (paths) => `^(${paths.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
const under = (folders) => `^(${folders.join("|")})`;

/** The layers, lowest first. Each entry: a name and the paths (regex prefixes) it owns. */
const LAYERS = [
  // What everything may share: vocabularies, the event union and view types, the tool catalogue,
  // error types, text helpers. Imports zod and the standard library only.
  { name: "domain", paths: ["server/domain/"] },
  // The process's own plumbing: environment, logger, database client, data directory, HTTP helpers.
  {
    name: "platform",
    paths: [
      "server/env\\.ts$",
      "server/logger\\.ts$",
      "server/db\\.ts$",
      "server/db-driver\\.ts$",
      "server/generated/",
      "server/data-dir/",
      "server/http/",
      "server/postgres/",
    ],
  },
  { name: "events", paths: ["server/events/"] },
  {
    name: "policy",
    paths: [
      "server/policy/",
      "server/governance/",
      "server/contract/",
      "server/capture/",
      "server/dashboard/",
    ],
  },
  {
    name: "adapters",
    paths: [
      "server/model/",
      "server/sandbox/",
      "server/tools/",
      "server/git/",
      "server/intents/",
      "server/setup/",
      "server/settings/",
      "server/projects/",
      "server/terminal/",
      // The session wiring (dispatch, checkpoint policy, folded view) the engine and services share.
      "server/runtime/",
    ],
  },
  { name: "riva", paths: ["server/riva/"] },
  {
    name: "services",
    paths: [
      "server/orchestrator/",
      "server/answer/",
      "server/workspace-editor/",
      "server/teams/",
      "server/auth/",
    ],
  },
  {
    name: "api",
    paths: ["server/api/", "server/app-context\\.ts$", "server/startup\\.ts$", "instrumentation\\.ts$"],
  },
  { name: "app", paths: ["app/"] },
];

/**
 * Inside riva, the same rule one level down (server/riva/README.md): decide/ (pure: what happens next
 * and what it writes) → perform/ (the steps that call the model, the sandbox or the log) → the engine
 * that drives them. A pure file can therefore never reach an effect. The engine's ports, Stop and the
 * output-so-far store (types, at riva's root) belong to no sub-layer: every part may use them.
 */
const RIVA_LAYERS = [
  { name: "riva-decide", paths: ["server/riva/decide/"] },
  { name: "riva-perform", paths: ["server/riva/perform/"] },
  { name: "riva-engine", paths: ["server/riva/engine"] },
];

/**
 * Test support: the one tree of it (testing/: the fake model server, test databases, harnesses, the
 * crash-soak drivers, the end-to-end and benchmark helpers), tests themselves, and the scripts and
 * suites that run them. Not checked by the layer rules (a test may reach any layer it tests);
 * production code never imports it (rule production-imports-test-support).
 */
const TEST_SUPPORT = "^testing/";
const TESTS = `(\\.test\\.tsx?$|${TEST_SUPPORT}|^e2e/|^bench/|^scripts/)`;

/** The files the browser runs: app/_components, app/_trpc and every "use client" module. */
function clientFiles() {
  const files = readdirSync(path.join(ROOT, "app"), { recursive: true })
    .map((file) => path.posix.join("app", String(file).split(path.sep).join("/")))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
  return files.filter(
    (file) =>
      /^app\/(_components|_trpc)\//.test(file) ||
      /^\s*(\/\/[^\n]*\n\s*)*["']use client["']/.test(readFileSync(path.join(ROOT, file), "utf8")),
  );
}
const CLIENT = anyOf(clientFiles());

/**
 * Modules that must never reach the browser: each must `import "server-only"` (so Next.js fails the
 * build if a client component pulls it in), and none may be reachable from a client file.
 */
const SERVER_ONLY = [
  "server/db\\.ts$",
  "server/db-driver\\.ts$",
  "server/env\\.ts$",
  "server/logger\\.ts$",
  "server/app-context\\.ts$",
  "server/startup\\.ts$",
  "server/generated/",
  "server/events/store\\.ts$",
  "server/sandbox/",
  "server/model/providers\\.ts$",
  "server/model/ai-sdk-model\\.ts$",
  "server/auth/",
  "server/api/",
];

module.exports = { CLIENT, LAYERS, RIVA_LAYERS, SERVER_ONLY, TEST_SUPPORT, TESTS, anyOf, under };
