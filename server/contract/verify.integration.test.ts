import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Criterion } from "@/server/domain/contract/criteria";
import { DockerSandboxProvider } from "@/server/sandbox";
import type { Sandbox } from "@/server/sandbox/types";
import { silentLogger } from "@/testing/harness/fakes";
import { verifyContract, verifyCriterion } from "./verify";

/** Every criterion kind checked inside a real sandbox container, passing and failing. */
let sandbox: Sandbox;
const exec = (command: string) => sandbox.exec(command, { timeoutMs: 20_000 });

beforeAll(async () => {
  sandbox = await new DockerSandboxProvider({ logger: silentLogger }).create({
    sessionId: `contract-${randomUUID().slice(0, 8)}`,
  });
  await sandbox.writeFile("src/math.py", "def add(a, b):\n    return a + b\n");
  await sandbox.writeFile("src/app.ts", "export const render = async () => {\n  return 'Usage: app';\n};\n");
  await sandbox.writeFile("test_math.sh", "#!/bin/sh\ngrep -q 'return a + b' src/math.py\n");
  await sandbox.exec(
    "git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm base && echo new > docs.md && mkdir -p lib && echo x > lib/x.ts",
  );
});
afterAll(async () => sandbox?.dispose());

describe("verifyCriterion in a real sandbox", () => {
  it.each<[Criterion, boolean]>([
    [{ kind: "FILE_EXISTS", path: "src/math.py" }, true],
    [{ kind: "FILE_EXISTS", path: "src/missing.py" }, false],
    [{ kind: "FILE_CONTAINS", path: "src/app.ts", text: "Usage: app" }, true],
    [{ kind: "FILE_CONTAINS", path: "src/app.ts", text: 'it\'s "quoted" $HOME' }, false],
    [{ kind: "TESTS_PASS", command: "sh test_math.sh" }, true],
    [{ kind: "TESTS_PASS", command: "exit 3" }, false],
    [{ kind: "FUNCTION_EXISTS", name: "add", path: "src/math.py" }, true],
    [{ kind: "FUNCTION_EXISTS", name: "render", path: null }, true],
    [{ kind: "FUNCTION_EXISTS", name: "subtract", path: null }, false],
    [{ kind: "GENERATED_TEST_PASSES", path: "test_math.sh", command: "sh test_math.sh" }, true],
    [{ kind: "GENERATED_TEST_PASSES", path: "test_missing.sh", command: "true" }, false],
    [{ kind: "LAYER_APPROPRIATE", allowed: ["docs.md", "lib/**"] }, true],
    [{ kind: "LAYER_APPROPRIATE", allowed: ["lib/**"] }, false],
  ])("%j → %s", async (criterion, expected) => {
    const result = await verifyCriterion(exec, criterion);
    expect(result.passed).toBe(expected);
    expect(result.evidence.length).toBeGreaterThan(0);
  });

  it("gives the evidence a reader needs", async () => {
    const [found, layer] = await verifyContract(exec, [
      { kind: "FILE_CONTAINS", path: "src/app.ts", text: "Usage" },
      { kind: "LAYER_APPROPRIATE", allowed: ["lib/**"] },
    ]);
    expect(found?.evidence).toContain("2:  return 'Usage: app';");
    expect(layer?.evidence).toBe("outside the allowed layers: docs.md");
  });
});
