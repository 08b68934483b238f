/**
 * Which workspace files are tests, by name, in the conventions of the frameworks discovery knows;
 * and what a test file tests. Shared by discovery (codebase intent) and the test-generation rule.
 */

/** A file name that says "I am a test", in the conventions of the frameworks discovery knows. */
const TEST_FILE =
  /(^|\/)(test_[^/]+\.py|[^/]+_test\.(py|go)|[^/]+\.(test|spec)\.[cm]?[jt]sx?|[^/]+_spec\.rb|[^/]+\.check\.sh)$/;

export function isTestFile(path: string): boolean {
  return TEST_FILE.test(path) || /(^|\/)(tests?|__tests__|spec)\/[^/]+\.[a-z]+$/.test(path);
}

/** What a test file tests, by its name: `src/parser.test.ts`, `tests/test_parser.py` → `parser`. */
export function testSubject(path: string): string {
  const name = (path.split("/").pop() ?? path).toLowerCase();
  return name
    .replace(/^test_/, "")
    .replace(/\.(test|spec|check)\.[a-z]+$/, "")
    .replace(/_(test|spec)\.[a-z]+$/, "")
    .replace(/\.[a-z]+$/, "");
}
