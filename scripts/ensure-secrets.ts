/**
 * Part of the start command: creates the generated secrets the environment does not set
 * (`<data dir>/auth-secret`, `<data dir>/secret-key`), once; existing files are kept. Importing
 * `server/env.ts` never does this (the build and `prisma generate` import it without secrets).
 */
import { ensureSecretFiles } from "@/server/data-dir/secret-files";
import { env } from "@/server/env";

for (const file of ensureSecretFiles(env.secretFiles)) console.log(`[arbor] created ${file} (owner-only)`);
// Read them back now, so a damaged file stops the start with its name rather than the first request.
void env.NEXTAUTH_SECRET;
void env.secretKey;
