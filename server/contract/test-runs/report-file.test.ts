import { describe, expect, it } from "vitest";
import { planTestCommand, reportPathFor, withReporter } from "./report-file";

describe("withReporter", () => {
  const path = "/tmp/r";
  it.each([
    [
      "npx vitest run",
      "vitest",
      "npx vitest run --reporter=default --reporter=json --outputFile.json=/tmp/r",
    ],
    ["npx jest --ci", "jest", "npx jest --ci --json --outputFile=/tmp/r"],
    ["python3 -m pytest -q", "pytest", "python3 -m pytest -q --junitxml=/tmp/r"],
    [
      "node --test 'test/a b.test.js'",
      "node-test",
      "node --test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=/tmp/r --test 'test/a b.test.js'",
    ],
    ["go test -run TestAdd ./...", "go", "go test -json -run TestAdd ./... > /tmp/r"],
    ["CGO_ENABLED=0 go test ./...", "go", "CGO_ENABLED=0 go test -json ./... > /tmp/r"],
    ["rspec spec/a_spec.rb", "rspec", "rspec spec/a_spec.rb --format progress --format json --out /tmp/r"],
    ["rspec -f d", "rspec", "rspec -f d --format json --out /tmp/r"],
  ] as const)("%s", (command, runner, expected) => {
    expect(withReporter(command, runner, path)).toBe(expected);
  });

  it.each([
    ["cd app && npx vitest run", "vitest"],
    ["npx vitest run > out.txt", "vitest"],
    ["npx vitest run $FILES", "vitest"],
    ["npx vitest run --reporter=verbose", "vitest"],
    ["npx vitest", "jest"],
    ["npx jest --watch", "jest"],
    ["pytest --junitxml=mine.xml", "pytest"],
    ["go test -json ./...", "go"],
    ["cargo test", "cargo"],
    ["node --test --watch", "node-test"],
  ] as const)("leaves %s (%s) alone", (command, runner) => {
    expect(withReporter(command, runner, path)).toBeNull();
  });
});

describe("planTestCommand", () => {
  it("adds a reporter and a stable report path for a direct runner", () => {
    const plan = planTestCommand("npx vitest run");
    expect(plan.report).toEqual({ path: reportPathFor("npx vitest run", "jest-json"), format: "jest-json" });
    expect(plan.command).toContain(`--outputFile.json=${plan.report?.path}`);
    expect(planTestCommand("npx vitest run")).toEqual(plan);
    expect(plan.report?.path).toMatch(/^\/tmp\/arbor-test-report-[0-9a-f]{12}\.json$/);
  });

  it.each([
    ["npm test", "vitest run", "npm test -- --reporter=default --reporter=json --outputFile.json="],
    ["npm test -- -t add", "jest", "npm test -- -t add --json --outputFile="],
    ["npm test", "node --test", "npm test -- --test-reporter=spec"],
    ["npm test", "node --test --experimental-strip-types", "npm test -- --test-reporter=spec"],
  ])("%s with script %j → %s…", (command, script, prefix) => {
    expect(planTestCommand(command, { script }).command.startsWith(prefix)).toBe(true);
  });

  it.each([
    // node takes options only before its files: appended after them they would reach the test file.
    ["npm test", "node --test test/"],
    ["npm test", "node --test --test-name-pattern add"],
    ["npm test", "vitest run && eslint ."],
    ["npm test", "./run-tests.sh"],
    ["pnpm test", "vitest run"],
    ["npm test", null],
    ["cargo test", null],
    ["cd app && pytest", null],
  ])("%s with script %j runs unchanged, read by its summary lines", (command, script) => {
    const plan = planTestCommand(command, { script });
    expect(plan.command).toBe(command);
    expect(plan.report).toBeNull();
  });
});
