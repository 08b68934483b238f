import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Creates the generated secrets the environment does not set (the paths `env.secretFiles` names):
 * 32 random bytes, base64url, readable only by the owner. A file that exists is kept as it is: the
 * secret key behind stored API keys must never change. Run by the start command
 * (`scripts/ensure-secrets.ts`), never by an import. Returns the files it created.
 */
export function ensureSecretFiles(files: { authSecret: string | null; secretKey: string | null }): string[] {
  const created: string[] = [];
  for (const file of [files.authSecret, files.secretKey]) {
    if (file === null || existsSync(file)) continue;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // `wx`: never overwrite, even if another start made it in between.
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw error;
    }
    chmodSync(file, 0o600);
    created.push(file);
  }
  return created;
}
