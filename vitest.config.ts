import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "@": path.resolve(import.meta.dirname),
  // `server-only` throws outside React Server Components; tests import server modules directly.
  "server-only": path.resolve(import.meta.dirname, "testing/server-only/stub.ts"),
};
const exclude = ["node_modules/**", ".next/**", "e2e/**", "data/**"];
/** The tests that run on both databases: the event store, its projections, appends from several processes. */
const bothDatabases = ["server/events/*.integration.test.ts"];
/** Tests of what exists only on PostgreSQL (several instances on one database). */
const postgresOnly = ["server/postgres/*.integration.test.ts"];
/** The throwaway cluster deploy/postgres.sh starts (its defaults), unless the test command names another. */
const postgresUrl = process.env.ARBOR_TEST_POSTGRES_URL ?? "postgresql://arbor:arbor@127.0.0.1:54329/arbor";

/**
 * Three projects: `unit` runs pure code (no Docker, no network, no database file), `integration`
 * talks to the real Docker engine, a real SQLite file and the fake model server over HTTP, and
 * `integration-postgres` runs the store tests again on PostgreSQL and the tests of several instances on
 * one database (deploy/postgres.sh starts it).
 */
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["**/*.test.ts"],
          exclude: [...exclude, "**/*.integration.test.ts"],
          environment: "node",
          // Vitest's 5 s default is a timing assertion in disguise: on the 2-core CI machine under load a
          // property test or a real child process can take longer without anything being wrong. Tests
          // that mean a deadline assert it themselves.
          testTimeout: 20_000,
          // One file per core (Vitest's default leaves one core idle: on the 2-core CI machine the unit
          // tests took 141 s one file at a time and 100 s two at a time, measured 2026-11-29).
          maxWorkers: "100%",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude: [...exclude, ...postgresOnly],
          environment: "node",
          env: { ARBOR_LOG_LEVEL: "warn" },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Two files at a time: they wait on Docker, the fake model and child processes most of the
          // time, so one at a time left the 2-core CI machine 45 % idle (963 s); two at a time took 530 s,
          // 86 % busy, all passing (2026-11-29, a quiet machine; README "Development"). Each file owns its
          // sandboxes (its own owner label or name prefix), data directory, ports (0 or random) and second
          // Docker engine, so none sweeps or reuses another's. Not more on a bigger machine: the one
          // Docker engine and its network setup are shared.
          maxWorkers: 2,
          fileParallelism: true,
          // After the unit tests when both run in one command: Vitest will not mix projects of
          // different widths (the unit tests take every core) in one group.
          sequence: { groupOrder: 1 },
          provide: { postgresUrl: "" },
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration-postgres",
          include: [...bothDatabases, ...postgresOnly],
          exclude,
          environment: "node",
          env: { ARBOR_LOG_LEVEL: "warn" },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          provide: { postgresUrl },
        },
      },
    ],
  },
});
