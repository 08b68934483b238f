import { describe, expect, it } from "vitest";
import { isTestFile, testSubject } from "@/server/domain/contract/test-files";
import { applyTestRule, existingTestFor, scopedTestCommand } from "./generated-test-rule";

const test = (path: string, command: string) => ({ path, content: "x", command });

describe("scopedTestCommand: the generated file alone, per framework", () => {
  it.each([
    ["vitest", "src/a.test.ts", "npx vitest run src/a.test.ts"],
    ["jest", "src/a.test.js", "npx jest src/a.test.js"],
    ["mocha", "test/a.spec.js", "npx mocha test/a.spec.js"],
    ["pytest", "tests/test_a.py", "python3 -m pytest -q tests/test_a.py"],
    ["go test", "pkg/greet/greet_test.go", "go test ./pkg/greet"],
    ["go test", "greet_test.go", "go test ."],
    ["rspec", "spec/a_spec.rb", "bundle exec rspec spec/a_spec.rb"],
  ])("%s: %s → %s", (framework, path, command) => {
    expect(scopedTestCommand(framework, path)).toBe(command);
  });

  it("quotes a path the shell would split", () => {
    expect(scopedTestCommand("pytest", "tests/test a.py")).toBe("python3 -m pytest -q 'tests/test a.py'");
  });

  it("knows no scoped command for cargo, a make target, an npm script or no framework", () => {
    for (const framework of ["cargo test", "make", "npm test script", null])
      expect(scopedTestCommand(framework, "t/a.test.js")).toBeNull();
  });
});

describe("applyTestRule", () => {
  const none: string[] = [];

  it.each([
    ["vitest", "src/a.test.ts", "npx vitest", "npx vitest run src/a.test.ts"],
    ["jest", "src/a.test.js", "npm test", "npx jest src/a.test.js"],
    ["mocha", "test/a.spec.js", "npx mocha", "npx mocha test/a.spec.js"],
    ["pytest", "tests/test_a.py", "python3 -m pytest -q", "python3 -m pytest -q tests/test_a.py"],
    ["go test", "pkg/a_test.go", "go test ./...", "go test ./pkg"],
    ["rspec", "spec/a_spec.rb", "bundle exec rspec", "bundle exec rspec spec/a_spec.rb"],
  ])("%s: replaces the unscoped `%s`… command", (framework, path, unscoped, scoped) => {
    expect(applyTestRule(test(path, unscoped), { framework, testFiles: none })).toEqual({
      kept: test(path, scoped),
    });
  });

  it.each([
    ["vitest", "src/a.test.ts", "npx vitest run src/a.test.ts --reporter dot"],
    ["pytest", "tests/test_a.py", "pytest tests/test_a.py -x"],
    ["go test", "pkg/a_test.go", "go test -run TestA ./pkg"],
    [null, "tests/a.check.sh", "sh tests/a.check.sh"],
  ])("%s: keeps a command already scoped to the file (%s)", (framework, path, command) => {
    expect(applyTestRule(test(path, command), { framework, testFiles: none })).toEqual({
      kept: test(path, command),
    });
  });

  it("keeps the model's command when discovery knows no scoped one (no framework)", () => {
    const proposed = test("checks/a.sh", "sh checks/a.sh && true");
    expect(applyTestRule(proposed, { framework: "make", testFiles: none })).toEqual({ kept: proposed });
  });

  it("drops any generated test in a Rust project", () => {
    const outcome = applyTestRule(test("tests/a.rs", "cargo test"), {
      framework: "cargo test",
      testFiles: none,
    });
    expect(outcome).toEqual({ dropped: expect.stringContaining("not for Rust") });
  });

  it.each([
    ["vitest", "src/parser.test.ts", ["src/parser.spec.ts"]],
    ["jest", "src/parser.test.js", ["__tests__/parser.js"]],
    ["pytest", "tests/test_parser.py", ["parser_test.py"]],
    ["go test", "parser/parser_test.go", ["parser/parser_test.go"]],
    ["rspec", "spec/parser_spec.rb", ["spec/parser_spec.rb"]],
    ["mocha", "test/parser.test.js", ["./test/parser.test.js"]],
  ])("%s: drops %s when the listing has a test for the same target", (framework, path, testFiles) => {
    const outcome = applyTestRule(test(path, "x"), { framework, testFiles });
    expect(outcome).toEqual({ dropped: expect.stringContaining("a test for it already exists") });
  });

  it("keeps it when the existing tests are about other targets", () => {
    const outcome = applyTestRule(test("src/parser.test.ts", "npx vitest run src/parser.test.ts"), {
      framework: "vitest",
      testFiles: ["src/lexer.test.ts", "tests/test_printer.py"],
    });
    expect(outcome).toHaveProperty("kept");
  });
});

describe("test files", () => {
  it("recognises each framework's test names, not sources", () => {
    for (const file of [
      "a.test.ts",
      "src/a.spec.jsx",
      "test_a.py",
      "a_test.py",
      "x/a_test.go",
      "spec/a_spec.rb",
    ])
      expect(isTestFile(file)).toBe(true);
    for (const file of ["src/a.ts", "main.go", "lib/a.rb", "README.md"]) expect(isTestFile(file)).toBe(false);
  });

  it("names what a test tests", () => {
    expect(testSubject("src/parser.test.ts")).toBe("parser");
    expect(testSubject("tests/test_parser.py")).toBe("parser");
    expect(testSubject("parser_test.go")).toBe("parser");
    expect(testSubject("spec/parser_spec.rb")).toBe("parser");
    expect(existingTestFor("src/parser.test.ts", ["src/parserx.test.ts"])).toBeUndefined();
  });
});
