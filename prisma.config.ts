import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";
import { isPostgresUrl, parseEnv } from "./server/env";

// Prisma 6.19's JS schema engine runs migrations through the same driver adapter as the app, so
// nothing is downloaded at migrate time (the native engine cannot be fetched on these machines).
// DATABASE_URL picks the provider: postgres(ql):// uses prisma/postgres (its own schema, generated
// from the SQLite one, and its own migrations), anything else the SQLite file.
const env = parseEnv(process.env);
process.env.DATABASE_URL = env.DATABASE_URL;
const postgres = isPostgresUrl(env.DATABASE_URL);

export default defineConfig({
  schema: postgres ? path.join("prisma", "postgres", "schema.prisma") : path.join("prisma", "schema.prisma"),
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    return postgres
      ? new PrismaPg({ connectionString: env.DATABASE_URL })
      : new PrismaBetterSQLite3({ url: env.DATABASE_URL });
  },
});
