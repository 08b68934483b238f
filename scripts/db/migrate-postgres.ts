import { parseEnv } from "../../server/env";
import { applyPostgresMigrations } from "../../server/postgres/migrate";

/** `prisma migrate deploy` for PostgreSQL (see server/postgres/migrate.ts for why it is not Prisma's). */
const url = parseEnv(process.env).DATABASE_URL;
try {
  const applied = await applyPostgresMigrations(url);
  console.log(applied.length === 0 ? "No pending migrations." : `Migrations applied: ${applied.join(", ")}`);
} catch (error) {
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
