import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerSandboxProvider } from "@/server/sandbox";
import type { Sandbox } from "@/server/sandbox/types";
import { silentLogger } from "@/testing/harness/fakes";
import { verifyContract, verifyCriterion } from "../verify";

/**
 * Real test runners in the real sandbox image, through verifyContract: a node:test project (run as
 * `npm test`) and a pytest project, each with one failing test; runs that ran no test.
 */
let sandbox: Sandbox;
const exec = (command: string) => sandbox.exec(command, { timeoutMs: 60_000, maxOutputBytes: 64 * 1024 });

const NODE_TEST = `const test = require("node:test");
const assert = require("node:assert");
const { sum } = require("../sum");
test("adds two numbers", () => assert.strictEqual(sum(1, 2), 3));
test("adds negatives", () => assert.strictEqual(sum(-1, -2), -4));
test.describe("math", () => {
  test.it("adds zero", () => assert.strictEqual(sum(0, 5), 5));
});
`;
const PY_TEST = `import pytest
from calc import add

def test_add():
    assert add(1, 2) == 3

def test_add_negatives():
    assert add(-1, -2) == -4

@pytest.mark.skip(reason="not yet")
def test_later():
    pass
`;

beforeAll(async () => {
  sandbox = await new DockerSandboxProvider({ logger: silentLogger }).create({
    sessionId: `test-results-${randomUUID().slice(0, 8)}`,
  });
  await sandbox.writeFile("package.json", JSON.stringify({ name: "p", scripts: { test: "node --test" } }));
  await sandbox.writeFile("sum.js", "exports.sum = (a, b) => a + b;\n");
  await sandbox.writeFile("test/sum.test.js", NODE_TEST);
  await sandbox.writeFile("py/calc.py", "def add(a, b):\n    return a + b\n");
  await sandbox.writeFile("py/test_calc.py", PY_TEST);
  await sandbox.writeFile(
    "py/test_later.py",
    'import pytest\n\n@pytest.mark.skip(reason="later")\ndef test_one():\n    pass\n',
  );
});
afterAll(async () => sandbox?.dispose());

describe("test results in a real sandbox", () => {
  it("npm test over a node:test script, the script unread: run as written, read from its summary lines", async () => {
    const [result] = await verifyContract(exec, [{ kind: "TESTS_PASS", command: "npm test" }]);
    expect(result?.passed).toBe(false);
    expect(result?.tests).toMatchObject({
      runner: "node-test",
      passed: 2,
      failed: 1,
      skipped: 0,
      total: 3,
      failingTests: ["adds negatives"],
      source: "summary-line",
    });
    // The runner is not certain without the script's text: no reporter was added.
    expect(result?.ranCommand).toBeUndefined();
    expect(result?.evidence).toContain(
      "`npm test` failed: 2 passed, 1 failed, 0 skipped\nfailing: adds negatives",
    );
  });

  it("npm test over a node:test script discovery read: TAP on stdout, read as the report", async () => {
    const [result] = await verifyContract(exec, [{ kind: "TESTS_PASS", command: "npm test" }], {
      testScript: "node --test",
    });
    expect(result?.passed).toBe(false);
    expect(result?.tests).toMatchObject({
      runner: "node-test",
      passed: 2,
      failed: 1,
      skipped: 0,
      failingTests: ["adds negatives"],
      source: "reporter",
    });
    expect(result?.evidence).toContain(
      "`npm test -- --test-reporter=tap` failed: 2 passed, 1 failed, 0 skipped",
    );
  });

  it("pytest: counts and the failing test's name, from its JUnit XML on stdout", async () => {
    const [result] = await verifyContract(exec, [
      { kind: "TESTS_PASS", command: "python3 -m pytest -q -p no:cacheprovider py/test_calc.py" },
    ]);
    expect(result?.passed).toBe(false);
    expect(result?.tests).toMatchObject({
      runner: "pytest",
      passed: 1,
      failed: 1,
      skipped: 1,
      failingTests: [expect.stringContaining("test_add_negatives")],
      source: "reporter",
    });
    expect(result?.evidence).toContain("py/test_calc.py --junitxml=/dev/stdout` failed");
    // The node shows the exact command that ran.
    expect(result?.ranCommand).toBe(
      "python3 -m pytest -q -p no:cacheprovider py/test_calc.py --junitxml=/dev/stdout",
    );
  });

  it("a passing pytest run passes, with its counts", async () => {
    const result = await verifyCriterion(exec, {
      kind: "GENERATED_TEST_PASSES",
      path: "py/test_calc.py",
      command: "python3 -m pytest -q -p no:cacheprovider py/test_calc.py -k 'not negatives'",
    });
    expect(result.passed).toBe(true);
    expect(result.tests).toMatchObject({ passed: 1, failed: 0, skipped: 1, source: "reporter" });
  });

  it.each([
    // node with a file pattern that matches nothing: exit 0, "1..0" (read from the TAP report).
    ["node --test 'none/*.test.js'", "reporter", "ran 0 tests"],
    // Every test skipped: pytest exits 0 (read from the JUnit XML).
    ["python3 -m pytest -q -p no:cacheprovider py/test_later.py", "reporter", "ran 0 tests (1 skipped)"],
    // Compound: no reporter can be added, the summary lines are read.
    ["mkdir -p empty && cd empty && node --test", "summary-line", "ran 0 tests"],
  ])("%s exits 0 but ran no test: not a pass", async (command, source, veto) => {
    const result = await verifyCriterion(exec, { kind: "TESTS_PASS", command });
    expect(result.passed).toBe(false);
    expect(result.tests?.source).toBe(source);
    expect(result.evidence.split("\n")[0]).toContain(`exited 0: 0 passed, 0 failed`);
    expect(result.evidence.split("\n")[0]).toContain(`(not a pass: ${veto})`);
  });

  it("a command that is not a test runner is still judged by its exit code alone", async () => {
    const result = await verifyCriterion(exec, { kind: "TESTS_PASS", command: "test -e sum.js" });
    expect(result.passed).toBe(true);
    expect(result.tests).toBeUndefined();
    expect(result.ranCommand).toBeUndefined();
  });
});
