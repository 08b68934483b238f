import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { parseEnv } from "./server/env";

// Prisma 6.19's JS schema engine runs migrations through the same driver adapter as the app, so
// nothing is downloaded at migrate time (the native engine cannot be fetched on these machines).
const env = parseEnv(process.env);
process.env.DATABASE_URL = env.DATABASE_URL;

export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    return new PrismaBetterSQLite3({ url: env.DATABASE_URL });
  },
});
