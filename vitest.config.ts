import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "@": path.resolve(import.meta.dirname),
  // `server-only` throws outside React Server Components; tests import server modules directly.
  "server-only": path.resolve(import.meta.dirname, "testing/server-only/stub.ts"),
};
const exclude = ["node_modules/**", ".next/**", "e2e/**", "data/**"];

/**
 * Two projects: `unit` runs pure code (no Docker, no network, no database file), `integration`
 * talks to the real Docker engine, a real SQLite file and the fake model server over HTTP.
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
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude,
          environment: "node",
          env: { ARBOR_LOG_LEVEL: "warn" },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
