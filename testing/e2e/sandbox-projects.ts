import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Real little projects as local git repositories, for importing with `file://`: a Node project
 * (node:test, no dependencies) and a Python one (pytest), each with one failing test that is slow on
 * purpose (a line every 300 ms for 3 s) so its output can be seen arriving while it runs.
 */
function commitAll(files: Record<string, string>, prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
  git("init", "-q", "--initial-branch=main");
  git("add", ".");
  git(
    "-c",
    "user.name=T",
    "-c",
    "user.email=t@example.com",
    "commit",
    "-qm",
    "a project with a failing test",
  );
  return dir;
}

export const NODE_FAILING_TEST = "sum handles negative numbers";
export const PYTHON_FAILING_TEST = "test_sum_handles_negative_numbers";

export function nodeProject(): string {
  return commitAll(
    {
      "package.json": `${JSON.stringify({ name: "sum", version: "1.0.0", private: true, scripts: { test: "node --test" } }, null, 2)}\n`,
      "sum.js": "function sum(a, b) {\n  return b < 0 ? a - b : a + b;\n}\nmodule.exports = { sum };\n",
      "sum.test.js": [
        'const test = require("node:test");',
        'const assert = require("node:assert");',
        'const { sum } = require("./sum");',
        "",
        'test("sum adds small numbers", () => {',
        "  assert.strictEqual(sum(1, 2), 3);",
        "});",
        "",
        `test("${NODE_FAILING_TEST}", async () => {`,
        "  for (let i = 1; i <= 10; i++) {",
        '    console.log("checking slowly " + i + "/10");',
        "    await new Promise((resolve) => setTimeout(resolve, 300));",
        "  }",
        "  assert.strictEqual(sum(5, -3), 2);",
        "});",
        "",
      ].join("\n"),
    },
    "arbor-node-",
  );
}

export function pythonProject(): string {
  return commitAll(
    {
      // -v: one line per test as it finishes, which is what the page shows arriving.
      "pytest.ini": "[pytest]\naddopts = -v -p no:cacheprovider\n",
      "calc.py": "def sum_numbers(a, b):\n    return a - b if b < 0 else a + b\n",
      "test_calc.py": [
        "import time",
        "",
        "import pytest",
        "",
        "from calc import sum_numbers",
        "",
        "",
        '@pytest.mark.parametrize("step", range(1, 11))',
        "def test_counts_slowly(step):",
        "    time.sleep(0.3)",
        "    assert sum_numbers(step, 1) == step + 1",
        "",
        "",
        `def ${PYTHON_FAILING_TEST}():`,
        "    assert sum_numbers(5, -3) == 2",
        "",
      ].join("\n"),
    },
    "arbor-python-",
  );
}

export const NODE_DEPENDENCY_FAILING_TEST = "reads a day and a half";

/**
 * The committed fixture `fixtures/node-duration` as a repository: package.json and package-lock.json
 * with one real dependency from the npm registry (`ms`), and a node:test file whose slow test fails.
 * Its lock file makes Arbor detect `npm ci` as the project's setup command.
 */
export function nodeProjectWithDependency(): string {
  const fixture = path.join(import.meta.dirname, "fixtures", "node-duration");
  const files = Object.fromEntries(
    readdirSync(fixture).map((name) => [name, readFileSync(path.join(fixture, name), "utf8")]),
  );
  return commitAll(files, "arbor-node-dep-");
}

/**
 * A repository whose default branch names its setup command in `.arbor/config.yaml` (issue #20.3),
 * and has no lock file (so nothing else proposes one).
 */
export function projectWithSetupInConfig(command: string): string {
  return commitAll(
    {
      "README.md": "# setup from the repository\n",
      ".arbor/config.yaml": `setup:\n  command: ${JSON.stringify(command)}\n`,
    },
    "arbor-repo-setup-",
  );
}
