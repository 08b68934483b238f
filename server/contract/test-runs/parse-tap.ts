import { Parser, type Result } from "tap-parser";
import { type TestResults, testResults } from "@/server/domain/contract/test-results";

/**
 * node:test's TAP report. Suites are TAP subtests whose own line summarises their children (node
 * marks them `type: 'suite'` in the YAML block); only the tests themselves are counted, named with
 * their suites ("math > multiplies"). A `# TODO` test neither passes nor fails: it counts as skipped.
 */
export function parseTap(text: string): TestResults | null {
  if (!/^TAP version \d+/m.test(text) && !/^(not )?ok \d+/m.test(text)) return null;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const failing: string[] = [];
  const walk = (parser: Parser, path: readonly string[]) => {
    parser.on("assert", (result: Result) => {
      if (result.diag?.type === "suite") return;
      const name = [...path, result.name].join(" > ");
      if (result.todo || result.skip) counts.skipped += 1;
      else if (result.ok) counts.passed += 1;
      else {
        counts.failed += 1;
        failing.push(name);
      }
    });
    parser.on("child", (child: Parser) => walk(child, child.name ? [...path, child.name] : path));
  };
  const parser = new Parser();
  walk(parser, []);
  // The parser is synchronous: every event has fired when end() returns.
  parser.end(text);
  if (counts.passed + counts.failed + counts.skipped === 0 && !/^1\.\.0\b/m.test(text)) return null;
  return testResults({ runner: "node-test", ...counts, failingTests: failing, source: "reporter" });
}
