import { describe, expect, it } from "vitest";
import { detectSecrets, entropy, isEnvFileName, redact } from "./secrets";

// Assembled at run time so this file does not itself look like it holds credentials.
const fake = (prefix: string, body: string) => `${prefix}${body}`;
const GITHUB_CLASSIC = fake("ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8");
const GITHUB_FINE = fake("github_pat_", "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz");
const OPENAI = fake("sk-proj-", "Xy12Ab34Cd56Ef78Gh90Ij12Kl34");
const SLACK = fake("xoxb-", "1234567890-0987654321-AbCdEfGhIjKl");
const AWS_ID = "AKIAIOSFODNN7EXAMPLE";
const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const PEM = ["-----BEGIN ", "RSA PRIVATE KEY-----"].join("");

describe("detectSecrets", () => {
  it.each([
    ["private-key", `${PEM}\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----`, 1],
    ["private-key", `x\n${["-----BEGIN ", "OPENSSH PRIVATE KEY-----"].join("")}`, 2],
    ["aws-access-key-id", `aws_access_key_id = ${AWS_ID}`, 1],
    ["aws-secret-access-key", `aws_secret_access_key = ${AWS_SECRET}`, 1],
    ["github-token", `token: ${GITHUB_CLASSIC}`, 1],
    ["github-token", `GH=${GITHUB_FINE}`, 1],
    ["openai-key", `OPENAI_API_KEY=${OPENAI}`, 1],
    ["slack-token", `slack: "${SLACK}"`, 1],
    ["slack-webhook", "url = https://hooks.slack.com/services/T000/B000/XXXXXXXX", 1],
    ["generic-assignment", 'password = "s3cr3t-Pa55w0rd!"', 1],
    ["generic-assignment", "DB_PASSWORD=Zx9#kQ2!mW7p", 1],
    ["generic-assignment", '{ "api_key": "9f8e7d6c5b4a3f2e1d0c" }', 1],
    ["generic-assignment", "client_secret: aB3dE5gH7jK9mN1p", 1],
  ])("finds a %s", (kind, text, line) => {
    const findings = detectSecrets(`first line\n${text}`);
    expect(findings.map((f) => [f.kind, f.line])).toContainEqual([kind, line + 1]);
  });

  it.each([
    "password: string",
    "const password = req.body.password;",
    "apiKey: process.env.OPENAI_API_KEY",
    "secret = randomBytes(32).toString('hex')",
    'password = "changeme"',
    'password = "xxxxxxxxxxxx"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template.
    "api_key=${API_KEY}",
    "password = <your-password>",
    "token_count = 12345678",
    "const task-1234567890abcdefghij = 1",
    "sk-learn is a library",
    "The passwordless flow is simple",
  ])("does not flag %j", (text) => {
    expect(detectSecrets(text)).toEqual([]);
  });

  it("reports line and column, and never shows the secret in the preview", () => {
    const secrets = [GITHUB_CLASSIC, OPENAI, SLACK, AWS_ID, AWS_SECRET, "Zx9#kQ2!mW7p"];
    const text = [
      "ok",
      `  const t = "${GITHUB_CLASSIC}"; const o = "${OPENAI}"`,
      `SLACK=${SLACK}`,
      `aws_secret_access_key=${AWS_SECRET} # ${AWS_ID}`,
      "DB_PASSWORD=Zx9#kQ2!mW7p",
    ].join("\n");
    const findings = detectSecrets(text);
    expect(findings.map((f) => [f.kind, f.line, f.column])).toEqual([
      ["github-token", 2, 14],
      ["openai-key", 2, 68],
      ["slack-token", 3, 7],
      ["aws-secret-access-key", 4, 23],
      ["aws-access-key-id", 4, 66],
      ["generic-assignment", 5, 13],
    ]);
    for (const finding of findings) {
      for (const secret of secrets) expect(finding.preview).not.toContain(secret);
      expect(finding.preview).toContain("[redacted");
    }
  });

  it("shows a PEM header as it is but nothing of the key body", () => {
    const [finding] = detectSecrets(`${PEM}\nMIIEsecretbody\n-----END RSA PRIVATE KEY-----`);
    expect(finding?.preview).toBe(PEM);
  });

  it("reports one finding, of the specific kind, when a generic assignment holds a known key", () => {
    expect(detectSecrets(`api_key = "${OPENAI}"`).map((f) => f.kind)).toEqual(["openai-key"]);
  });

  it("finds .env files by name but not their templates", () => {
    expect(detectSecrets("", { fileName: "apps/api/.env.local" })).toEqual([
      { kind: "env-file", line: 1, column: 1, preview: ".env.local is an environment file" },
    ]);
    expect(detectSecrets("", { fileName: ".env.example" })).toEqual([]);
    expect(isEnvFileName(".env")).toBe(true);
    expect(isEnvFileName(".envrc")).toBe(false);
    expect(isEnvFileName("src/env.ts")).toBe(false);
  });

  it("handles CRLF line endings and long lines", () => {
    const findings = detectSecrets(`a\r\n${"x".repeat(500)} ${GITHUB_CLASSIC} ${"y".repeat(500)}`);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.line).toBe(2);
    expect(findings[0]?.preview.length).toBeLessThanOrEqual(160);
  });
});

describe("redact and entropy", () => {
  it("keeps at most a fifth of the secret, and at most four characters", () => {
    expect(redact("abcdefgh")).toBe("a…[redacted 8 chars]");
    expect(redact("abcd")).toBe("…[redacted 4 chars]");
    expect(redact(GITHUB_CLASSIC)).toBe("ghp_…[redacted 40 chars]");
  });

  it("measures bits per character", () => {
    expect(entropy("aaaa")).toBe(0);
    expect(entropy("abab")).toBe(1);
    expect(entropy("abcdefgh")).toBe(3);
  });
});
