/**
 * Part of the build: checks the environment's shape (every variable's type, range and the rules that
 * span variables) without runtime secrets, so a bad value fails `npm run build` and not the first
 * request. Importing `server/env.ts` parses `process.env` and throws with every problem listed; it
 * writes nothing and reads no secret file.
 */
export {};

try {
  const { env } = await import("@/server/env");
  console.log(`[arbor] environment ok (data directory ${env.dataDir})`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
