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

const TESTS = "(\\.test\\.tsx?$|^server/testing/|^e2e/|^bench/|^scripts/|/crash-soak/|/fake-openai/)";

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

/**
 * Rules still in report mode (severity "warn": printed by `npm run deps:report`, not failing the gate)
 * because the tree still breaks them; the README's Architecture → Layers lists them as known debt.
 * Every other rule fails the test command. Empty this list as the debt is paid.
 */
const REPORT_ONLY = ["layer-domain", "browser-reaches-node-builtin"];

/** The rule with its severity: "error" (gate) unless it is in REPORT_ONLY. */
const withSeverity = (rule) => ({ ...rule, severity: REPORT_ONLY.includes(rule.name) ? "warn" : "error" });

module.exports = { CLIENT, LAYERS, REPORT_ONLY, SERVER_ONLY, TESTS, anyOf, under, withSeverity };
