import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "./env";

const dirs: string[] = [];
function dataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-env-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("parseEnv: ARBOR_SECRET_KEY and the model variables", () => {
  it("generates a 32-byte secret key into the data directory once, readable only by the owner", () => {
    const dir = dataDir();
    const first = parseEnv({ ARBOR_DATA_DIR: dir, NEXTAUTH_SECRET: "x" });
    const second = parseEnv({ ARBOR_DATA_DIR: dir, NEXTAUTH_SECRET: "x" });
    expect(first.secretKey).toHaveLength(32);
    expect(second.secretKey).toEqual(first.secretKey);
    expect(statSync(path.join(dir, "secret-key")).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dir, "secret-key"), "utf8")).not.toBe("");
  });

  it("uses a given key and refuses a malformed one with every problem listed", () => {
    const key = randomBytes(32);
    const parsed = parseEnv({
      ARBOR_DATA_DIR: dataDir(),
      NEXTAUTH_SECRET: "x",
      ARBOR_SECRET_KEY: key.toString("hex"),
    });
    expect(parsed.secretKey).toEqual(key);
    const bad = () =>
      parseEnv({
        ARBOR_DATA_DIR: dataDir(),
        NEXTAUTH_SECRET: "x",
        ARBOR_SECRET_KEY: "short",
        ARBOR_MODEL_PROVIDER: "mistral",
      });
    expect(bad).toThrow(/ARBOR_SECRET_KEY: must be 32 bytes/);
    expect(bad).toThrow(/ARBOR_MODEL_PROVIDER: Invalid option/);
  });

  it("leaves unset model variables unset, so the settings layers below can decide", () => {
    const parsed = parseEnv({
      ARBOR_DATA_DIR: dataDir(),
      NEXTAUTH_SECRET: "x",
      ARBOR_MODEL_PROVIDER: "anthropic",
    });
    expect(parsed.ARBOR_MODEL_PROVIDER).toBe("anthropic");
    expect(parsed.ARBOR_MODEL_NAME).toBeUndefined();
    expect(parsed.ARBOR_MODEL_TIMEOUT_MS).toBeUndefined();
  });

  it("names a damaged generated key file instead of silently making a new key", () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, "secret-key"), "not-a-key");
    expect(() => parseEnv({ ARBOR_DATA_DIR: dir, NEXTAUTH_SECRET: "x" })).toThrow(
      /secret-key: must be 32 bytes/,
    );
  });
});

describe("parseEnv: ARBOR_IMPORT_LOCAL_ROOT", () => {
  it("is off by default and refuses a root that is the data directory or inside it", () => {
    const dir = dataDir();
    expect(parseEnv({ ARBOR_DATA_DIR: dir, NEXTAUTH_SECRET: "x" }).ARBOR_IMPORT_LOCAL_ROOT).toBeUndefined();
    expect(
      parseEnv({ ARBOR_DATA_DIR: dir, NEXTAUTH_SECRET: "x", ARBOR_IMPORT_LOCAL_ROOT: "/srv/git" })
        .ARBOR_IMPORT_LOCAL_ROOT,
    ).toBe("/srv/git");
    for (const root of [dir, path.join(dir, "repos")]) {
      expect(() =>
        parseEnv({ ARBOR_DATA_DIR: dir, NEXTAUTH_SECRET: "x", ARBOR_IMPORT_LOCAL_ROOT: root }),
      ).toThrow(/ARBOR_IMPORT_LOCAL_ROOT: .* is Arbor's data directory or inside it/);
    }
    expect(() =>
      parseEnv({ ARBOR_DATA_DIR: dir, NEXTAUTH_SECRET: "x", ARBOR_IMPORT_LOCAL_ROOT: "relative" }),
    ).toThrow(/ARBOR_IMPORT_LOCAL_ROOT: must be an absolute path/);
  });
});
