import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseSecretKey } from "@/server/data-dir/secret-key";
import { createSecretBox, SecretKeyMismatchError, SecretTamperedError } from "./secret-box";

const key = randomBytes(32);
const box = createSecretBox(key);
const API_KEY = "sk-live-abcdefghijklmnopqrstuvwxyz0123456789";

/** Flips one bit of one base64url part of a sealed value. */
function flip(sealed: string, partIndex: number): string {
  const parts = sealed.split(".");
  const bytes = Buffer.from(parts[partIndex] ?? "", "base64url");
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  parts[partIndex] = bytes.toString("base64url");
  return parts.join(".");
}

describe("secret box (AES-256-GCM)", () => {
  it("round-trips, with a fresh IV each time and no plaintext in the sealed text", () => {
    const first = box.seal(API_KEY, "team:t1");
    const second = box.seal(API_KEY, "team:t1");
    expect(first).not.toBe(second);
    expect(first.split(".")[2]).not.toBe(second.split(".")[2]);
    expect(first).not.toContain(API_KEY);
    expect(first).not.toContain(API_KEY.slice(-8));
    expect(box.open(first, "team:t1")).toBe(API_KEY);
    expect(box.open(second, "team:t1")).toBe(API_KEY);
    expect(box.open(box.seal("", "x"), "x")).toBe("");
    expect(box.open(box.seal("ключ 🔑", "x"), "x")).toBe("ключ 🔑");
  });

  it.each([
    ["the IV", 2],
    ["the auth tag", 3],
    ["the ciphertext", 4],
  ])("detects a change to %s", (_, part) => {
    const sealed = box.seal(API_KEY, "team:t1");
    expect(() => box.open(flip(sealed, part), "team:t1")).toThrow(SecretTamperedError);
  });

  it("refuses a value moved to another team or project (bound context)", () => {
    const sealed = box.seal(API_KEY, "team:t1");
    expect(() => box.open(sealed, "team:t2")).toThrow(SecretTamperedError);
  });

  it("refuses garbage and truncated values", () => {
    for (const junk of ["", "plain-api-key", "v1.a.b.c", "v2.a.b.c.d", box.seal(API_KEY, "c").slice(0, 30)]) {
      expect(() => box.open(junk, "c")).toThrow(SecretTamperedError);
    }
  });

  it("says clearly when the secret key changed", () => {
    const sealed = box.seal(API_KEY, "team:t1");
    const rotated = createSecretBox(randomBytes(32));
    expect(() => rotated.open(sealed, "team:t1")).toThrow(SecretKeyMismatchError);
    expect(() => rotated.open(sealed, "team:t1")).toThrow(/different ARBOR_SECRET_KEY/);
  });

  it("refuses a key that is not 32 bytes", () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe("parseSecretKey", () => {
  it("accepts 32 bytes as hex, base64 and base64url", () => {
    const bytes = randomBytes(32);
    expect(parseSecretKey(bytes.toString("hex"))).toEqual(bytes);
    expect(parseSecretKey(bytes.toString("base64"))).toEqual(bytes);
    expect(parseSecretKey(` ${bytes.toString("base64url")} `)).toEqual(bytes);
  });

  it("refuses other lengths and non-encodings with a hint", () => {
    expect(() => parseSecretKey(randomBytes(16).toString("base64"))).toThrow(/decodes to 16 bytes/);
    expect(() => parseSecretKey("not a key!")).toThrow(/openssl rand -base64 32/);
  });
});
