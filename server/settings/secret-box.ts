import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets at rest (API keys in model settings). Each value gets a fresh random 96-bit
 * IV; the 128-bit auth tag is checked on every read, so a changed byte is an error, never garbage.
 * The sealed text also names which key sealed it (a short hash of the key, which reveals nothing
 * about it), so a rotated or wrong `ARBOR_SECRET_KEY` gets its own clear message instead of a
 * generic failure. `context` (for example "project:<id>") is bound as additional authenticated data:
 * a value copied to another team or project does not open there.
 *
 * Format: `v1.<keyId>.<iv>.<tag>.<ciphertext>`, each part base64url.
 */

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

/** The value was sealed with a different ARBOR_SECRET_KEY than the one the server has now. */
export class SecretKeyMismatchError extends SecretBoxError {
  constructor() {
    super(
      "A stored API key was encrypted with a different ARBOR_SECRET_KEY. Restore the previous key, or enter the API key again in the settings.",
    );
    this.name = "SecretKeyMismatchError";
  }
}

/** The value is not something this box sealed, or it was altered after sealing. */
export class SecretTamperedError extends SecretBoxError {
  constructor() {
    super(
      "A stored API key is corrupted or was altered, so it was not used. Enter the API key again in the settings.",
    );
    this.name = "SecretTamperedError";
  }
}

function keyIdOf(key: Buffer): string {
  return createHash("sha256").update("arbor-secret-box").update(key).digest("base64url").slice(0, 8);
}

export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new SecretBoxError(`The secret key must be 32 bytes, not ${key.length}.`);
  const keyId = keyIdOf(key);
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [
        VERSION,
        keyId,
        iv.toString("base64url"),
        tag.toString("base64url"),
        ciphertext.toString("base64url"),
      ].join(".");
    },
    open(sealed, context) {
      const parts = sealed.split(".");
      if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretTamperedError();
      const [, sealedKeyId, ivText, tagText, ciphertextText] = parts as [
        string,
        string,
        string,
        string,
        string,
      ];
      if (sealedKeyId !== keyId) throw new SecretKeyMismatchError();
      const iv = Buffer.from(ivText, "base64url");
      const tag = Buffer.from(tagText, "base64url");
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretTamperedError();
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(tag);
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertextText, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        // OpenSSL's "unable to authenticate data": the tag does not match what was sealed.
        throw new SecretTamperedError();
      }
    },
  };
}
