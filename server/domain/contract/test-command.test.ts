import { describe, expect, it } from "vitest";
import { detectTestRunners } from "./test-command";

describe("detectTestRunners", () => {
  it.each([
    ["npx vitest run", ["vitest"]],
    ["npx --no-install vitest run src/a.test.ts", ["vitest"]],
    ["./node_modules/.bin/jest --ci", ["jest"]],
    ["pnpm exec jest", ["jest"]],
    ["node --test", ["node-test"]],
    ["node --test test/a.test.js", ["node-test"]],
    ["pytest -q", ["pytest"]],
    ["python3 -m pytest tests/test_x.py", ["pytest"]],
    ["python -m pytest", ["pytest"]],
    ["uv run pytest", ["pytest"]],
    ["go test ./...", ["go"]],
    ["cargo test", ["cargo"]],
    ["bundle exec rspec", ["rspec"]],
    ["cd app && npx vitest run", ["vitest"]],
    ["npm test", ["vitest", "jest", "node-test"]],
    ["node index.js", []],
    ["node script.js --test", []],
    ["go build ./...", []],
    ["sh test_math.sh", []],
    ["python3 -m http.server", []],
  ])("%s → %j", (command, runners) => {
    expect(detectTestRunners(command)).toEqual(runners);
  });

  it("resolves a package script from its text, then from the discovered framework", () => {
    expect(detectTestRunners("npm test", { script: "node --test" })).toEqual(["node-test"]);
    expect(detectTestRunners("npm run test:unit", { script: "vitest run" })).toEqual(["vitest"]);
    expect(detectTestRunners("npm test", { script: "./run-tests.sh", framework: "jest" })).toEqual(["jest"]);
  });
});
