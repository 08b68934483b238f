import { XMLParser } from "fast-xml-parser";
import { type TestResults, testResults } from "@/server/domain/contract/test-results";

/**
 * A JUnit XML report (pytest's `--junitxml`; node:test's `junit` reporter writes the same shape).
 * Test cases are counted one by one rather than trusting the suites' attributes, because suites nest
 * and node puts test cases directly under <testsuites>. A case is failing when it has <failure> or
 * <error>, skipped when it has <skipped>; pytest's are named by node id, node's by "classname::name".
 */
type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  // Entities are plain text here; no DOCTYPE processing is needed (or wanted) for a test report.
  processEntities: true,
  isArray: (name) => name === "testsuite" || name === "testcase",
});

/**
 * pytest's node id (`tests/test_cart.py::TestCart::test_total`) from its JUnit `classname`
 * (`tests.test_cart.TestCart`): the id a person pastes into `pytest <id>` and the one pytest's own
 * summary lines print, so a run read either way names a failure the same. The module path ends at the
 * first segment that starts with a capital letter (a test class: `Test*` by default; modules are
 * lower case by convention).
 */
function pytestNodeId(classname: string, name: string): string {
  const segments = classname.split(".");
  const classAt = segments.findIndex((segment) => /^[A-Z]/.test(segment));
  const moduleParts = classAt < 0 ? segments : segments.slice(0, classAt);
  const classes = classAt < 0 ? [] : segments.slice(classAt);
  if (moduleParts.length === 0) return [...classes, name].join("::");
  return [`${moduleParts.join("/")}.py`, ...classes, name].join("::");
}

function caseName(runner: "pytest" | "node-test", testcase: Node): string {
  const name = typeof testcase.name === "string" ? testcase.name : "?";
  const classname = typeof testcase.classname === "string" ? testcase.classname : "";
  if (runner === "pytest" && classname) return pytestNodeId(classname, name);
  return classname && classname !== "test" ? `${classname}::${name}` : name;
}

export function parseJunitXml(runner: "pytest" | "node-test", text: string): TestResults | null {
  let document: Node;
  try {
    document = parser.parse(text) as Node;
  } catch {
    return null;
  }
  const root = (document.testsuites ?? document.testsuite) as Node | Node[] | undefined;
  if (!root) return null;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const failing: string[] = [];
  const visit = (node: Node) => {
    for (const testcase of (node.testcase as Node[] | undefined) ?? []) {
      if ("failure" in testcase || "error" in testcase) {
        counts.failed += 1;
        failing.push(caseName(runner, testcase));
      } else if ("skipped" in testcase) counts.skipped += 1;
      else counts.passed += 1;
    }
    for (const suite of (node.testsuite as Node[] | undefined) ?? []) visit(suite);
  };
  for (const node of Array.isArray(root) ? root : [root]) visit(node);
  return testResults({ runner, ...counts, failingTests: failing, source: "reporter" });
}
