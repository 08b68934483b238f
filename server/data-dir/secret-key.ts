/**
 * Parses `ARBOR_SECRET_KEY`: exactly 32 bytes, written as 64 hex digits or as base64 / base64url.
 * Pure (no env, no fs) so `server/env.ts` can validate with it and tests can call it directly.
 */
export function parseSecretKey(text: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, "hex");
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (bytes.length === 32) return bytes;
    throw new Error(`must be 32 bytes; this base64 value decodes to ${bytes.length} bytes`);
  }
  throw new Error("must be 32 bytes written as 64 hex digits or base64 (try: openssl rand -base64 32)");
}
