import { describe, expect, it } from "vitest";
import { secretsInStagedDiff } from "./staged-secrets";

const diff = (path: string, added: string[], header = "new file mode 100644") =>
  [
    `diff --git a/${path} b/${path}`,
    header,
    "index 0000000..1111111",
    "--- /dev/null",
    `+++ b/${path}`,
    `@@ -0,0 +1,${added.length} @@`,
    ...added.map((line) => `+${line}`),
  ].join("\n");

describe("secretsInStagedDiff", () => {
  it("finds a private key in an added file, with its path and line", () => {
    const findings = secretsInStagedDiff(
      diff("keys/id_rsa", ["-----BEGIN RSA PRIVATE KEY-----", "MIIE...", "-----END RSA PRIVATE KEY-----"]),
    );
    expect(findings[0]).toMatchObject({ path: "keys/id_rsa", line: 1 });
  });

  it("blocks an environment file by its name", () => {
    expect(secretsInStagedDiff(diff(".env", ["PORT=3000"])).map((finding) => finding.kind)).toContain(
      "env-file",
    );
  });

  it("finds nothing in ordinary code", () => {
    expect(secretsInStagedDiff(diff("src/app.ts", ["export const answer = 42;"]))).toEqual([]);
  });
});
