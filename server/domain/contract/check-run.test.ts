import { describe, expect, it } from "vitest";
import { checkRunOf } from "./check-run";

describe("checkRunOf: the command a test check runs, with the runner's reporter on stdout", () => {
  it.each([
    ["npx vitest run", "npx vitest run --reporter=default --reporter=json", "jest-json"],
    [
      "npx vitest run src/a.test.ts",
      "npx vitest run src/a.test.ts --reporter=default --reporter=json",
      "jest-json",
    ],
    ["npx jest", "npx jest --json", "jest-json"],
    ["npx jest test/sum.test.js", "npx jest test/sum.test.js --json", "jest-json"],
    ["node --test", "node --test --test-reporter=tap", "tap"],
    ["node --test test/sum.test.js", "node --test --test-reporter=tap test/sum.test.js", "tap"],
    [
      "python3 -m pytest -q test_calc.py",
      "python3 -m pytest -q test_calc.py --junitxml=/dev/stdout",
      "junit-xml",
    ],
    ["pytest", "pytest --junitxml=/dev/stdout", "junit-xml"],
    ["go test ./...", "go test -json ./...", "go-json"],
    ["bundle exec rspec", "bundle exec rspec --format progress --format json", "rspec-json"],
  ])("%s → %s", (command, runs, report) => {
    expect(checkRunOf(command)).toMatchObject({ command: runs, report });
  });

  it("npm test runs its script's reporter after `--` only when the script is one runner command", () => {
    expect(checkRunOf("npm test", { testScript: "vitest run" })).toMatchObject({
      command: "npm test -- --reporter=default --reporter=json",
      runners: ["vitest"],
      report: "jest-json",
    });
    expect(checkRunOf("npm test", { testScript: "jest --ci" }).command).toBe("npm test -- --json");
    expect(checkRunOf("npm test", { testScript: "node --test" }).command).toBe(
      "npm test -- --test-reporter=tap",
    );
    expect(checkRunOf("npm run test", { testScript: "pytest -q" }).command).toBe(
      "npm run test -- --junitxml=/dev/stdout",
    );
    expect(checkRunOf("npm test -- src/a.test.ts", { testScript: "vitest run" }).command).toBe(
      "npm test -- src/a.test.ts --reporter=default --reporter=json",
    );
  });

  it.each([
    // The script is not known (not read, or another script than `test`): the runner is not certain.
    ["npm test", {}],
    ["npm test", { framework: "vitest" }],
    ["npm run test:unit", { testScript: "vitest run" }],
    // A script that is not one simple runner command, or node with files (options go before them).
    ["npm test", { testScript: "vitest run && eslint ." }],
    ["npm test", { testScript: "node --test test/" }],
    ["npm test", { testScript: "./run-tests.sh" }],
    ["pnpm test", { testScript: "vitest run" }],
    // Compound, redirected or expanded commands, and commands that choose their own output.
    ["cd app && npx vitest run", {}],
    ["npx vitest run > out.txt", {}],
    ["npx vitest run $FILES", {}],
    ["npx vitest run --reporter=verbose", {}],
    ["npx vitest --watch", {}],
    ["npx jest --outputFile=x.json --json", {}],
    ["pytest --junitxml=report.xml", {}],
    ["bundle exec rspec -f documentation", {}],
    ["node --test --test-reporter=spec", {}],
    // No machine-readable output on stable cargo; not a test runner at all.
    ["cargo test", {}],
    ["make test", {}],
    ["test -e sum.js", {}],
  ])("%s with %j runs as written, with no report", (command, hints) => {
    expect(checkRunOf(command, hints)).toMatchObject({ command, report: null });
  });

  it("a command that already prints a readable report runs as written and is read as one", () => {
    expect(checkRunOf("node --test --test-reporter=tap test/sum.test.js")).toMatchObject({
      command: "node --test --test-reporter=tap test/sum.test.js",
      report: "tap",
    });
    expect(checkRunOf("go test -json ./...")).toMatchObject({
      command: "go test -json ./...",
      report: "go-json",
    });
    expect(checkRunOf("npm test", { testScript: "node --test --test-reporter=tap" })).toMatchObject({
      command: "npm test",
      report: "tap",
    });
  });

  it("runs the intention's own command as written when asked to (`run `pytest``)", () => {
    expect(checkRunOf("pytest -q", { asWritten: true })).toEqual({
      command: "pytest -q",
      runners: ["pytest"],
      report: null,
    });
  });

  it("is deterministic: the same command and workspace give the same text (what the hash binds)", () => {
    const hints = { testScript: "vitest run", framework: "vitest" };
    expect(checkRunOf("npm test", hints)).toEqual(checkRunOf("npm test", { ...hints }));
  });

  it("quotes what it rebuilds, keeping environment assignments first", () => {
    expect(checkRunOf("CI=1 node --test 'a b.test.js'").command).toBe(
      "CI=1 node --test --test-reporter=tap 'a b.test.js'",
    );
  });
});
