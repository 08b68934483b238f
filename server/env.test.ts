import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureSecretFiles } from "./data-dir/secret-files";
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
  it("reads the generated secrets from the files the start command creates, the same key every time", () => {
    const dir = dataDir();
    const files = parseEnv({ ARBOR_DATA_DIR: dir }).secretFiles;
    expect(files).toEqual({
      authSecret: path.join(dir, "auth-secret"),
      secretKey: path.join(dir, "secret-key"),
    });
    expect(ensureSecretFiles(files)).toEqual([files.authSecret, files.secretKey]);
    expect(ensureSecretFiles(files)).toEqual([]);
    const first = parseEnv({ ARBOR_DATA_DIR: dir });
    const second = parseEnv({ ARBOR_DATA_DIR: dir });
    expect(first.secretKey).toHaveLength(32);
    expect(second.secretKey).toEqual(first.secretKey);
    expect(first.NEXTAUTH_SECRET).toBe(readFileSync(path.join(dir, "auth-secret"), "utf8"));
    expect(statSync(path.join(dir, "secret-key")).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, "auth-secret")).mode & 0o777).toBe(0o600);
  });

  it("never writes a file when parsing; a missing secret file is named when the secret is first used", () => {
    const dir = dataDir();
    const parsed = parseEnv({ ARBOR_DATA_DIR: path.join(dir, "data") });
    expect(readdirSync(dir)).toEqual([]);
    expect(() => parsed.secretKey).toThrow(
      /ARBOR_SECRET_KEY: not set, and .*secret-key does not exist.*scripts\/start\.sh/,
    );
    expect(() => parsed.NEXTAUTH_SECRET).toThrow(
      /NEXTAUTH_SECRET: not set, and .*auth-secret does not exist/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("needs no secret file for a secret set in the environment", () => {
    const dir = dataDir();
    const key = randomBytes(32);
    const parsed = parseEnv({
      ARBOR_DATA_DIR: dir,
      NEXTAUTH_SECRET: "x",
      ARBOR_SECRET_KEY: key.toString("base64"),
    });
    expect(parsed.secretFiles).toEqual({ authSecret: null, secretKey: null });
    expect(parsed.NEXTAUTH_SECRET).toBe("x");
    expect(parsed.secretKey).toEqual(key);
    expect(ensureSecretFiles(parsed.secretFiles)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
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
        ARBOR_DOCKER_HOSTS: "local,tcp://10.0.0.2:2375",
      });
    expect(bad).toThrow(/ARBOR_SECRET_KEY: must be 32 bytes/);
    expect(bad).toThrow(/ARBOR_MODEL_PROVIDER: Invalid option/);
    // Plain TCP to a Docker engine is root on that host without a password: refused at startup.
    expect(bad).toThrow(/ARBOR_DOCKER_HOSTS: tcp:\/\/10\.0\.0\.2:2375: a tcp host needs \?tls=/);
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
    expect(() => parseEnv({ ARBOR_DATA_DIR: dir, NEXTAUTH_SECRET: "x" }).secretKey).toThrow(
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

describe("the env module's imports", () => {
  it("pull in no feature folder: only node built-ins, zod, the domain layer and the data directory's format", () => {
    const seen = new Set<string>();
    const outside: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, "utf8");
      for (const [, specifier] of text.matchAll(/^import[^"]*"([^"]+)";$/gm)) {
        if (specifier === undefined || specifier.startsWith("node:") || specifier === "zod") continue;
        const target = path.resolve(path.dirname(file), `${specifier}.ts`);
        const relative = path.relative(import.meta.dirname, target);
        // provider-vocabulary.ts imports only zod; the domain-layer move takes it to domain/vocabulary/.
        const allowed =
          /^(domain|data-dir)\//.test(relative) || relative === path.join("model", "provider-vocabulary.ts");
        if (!allowed) outside.push(`${path.relative(import.meta.dirname, file)} → ${specifier}`);
        else visit(target);
      }
    };
    visit(path.join(import.meta.dirname, "env.ts"));
    expect(outside).toEqual([]);
    expect(seen.size).toBeGreaterThan(2);
  });
});

describe("parseEnv: OpenTelemetry", () => {
  it("exports nothing unless an endpoint is set; headers are the standard key=value list, URL-decoded", () => {
    const unset = parseEnv({ ARBOR_DATA_DIR: dataDir() });
    expect(unset.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(unset.OTEL_EXPORTER_OTLP_HEADERS).toEqual({});
    expect(unset.OTEL_SERVICE_NAME).toBe("arbor");
    const set = parseEnv({
      ARBOR_DATA_DIR: dataDir(),
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc, x-team = grafana",
      OTEL_SERVICE_NAME: "arbor-prod",
    });
    expect(set.OTEL_EXPORTER_OTLP_ENDPOINT).toBe("http://collector:4318");
    expect(set.OTEL_EXPORTER_OTLP_HEADERS).toEqual({ authorization: "Bearer abc", "x-team": "grafana" });
    expect(set.OTEL_SERVICE_NAME).toBe("arbor-prod");
  });

  it("refuses a malformed header list without echoing its value", () => {
    const parse = () => parseEnv({ ARBOR_DATA_DIR: dataDir(), OTEL_EXPORTER_OTLP_HEADERS: "api-key-s3cret" });
    expect(parse).toThrow(/OTEL_EXPORTER_OTLP_HEADERS: expected key=value/);
    expect(parse).not.toThrow(/s3cret/);
    expect(() => parseEnv({ ARBOR_DATA_DIR: dataDir(), OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });
});
