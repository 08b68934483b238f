import { z } from "zod";
import { type TestResults, testResults } from "@/server/domain/contract/test-results";

/**
 * `go test -json`: one JSON event per line (test2json). A test's last pass/fail/skip event is its
 * result. A test with subtests (`TestTable/bad`) is not counted itself, only its subtests, so a table
 * test is as many tests as it has rows. A package that failed without any test failing (it did not
 * build) counts as one failure named after the package.
 */
const GoEvent = z.object({
  Action: z.string(),
  Package: z.string().optional(),
  Test: z.string().optional(),
});

export function parseGoJson(text: string): TestResults | null {
  const outcome = new Map<string, string>();
  const failedPackages: string[] = [];
  let events = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    let parsed: z.infer<typeof GoEvent>;
    try {
      const result = GoEvent.safeParse(JSON.parse(line));
      if (!result.success) continue;
      parsed = result.data;
    } catch {
      continue;
    }
    events += 1;
    const { Action: action, Package: pkg = "", Test: test } = parsed;
    if (action !== "pass" && action !== "fail" && action !== "skip") continue;
    if (test) outcome.set(`${pkg}\u0000${test}`, action);
    else if (action === "fail") failedPackages.push(pkg);
  }
  if (events === 0) return null;
  const names = [...outcome.keys()];
  const parents = new Set(
    names.flatMap((key) => {
      const [pkg, test = ""] = key.split("\u0000");
      const cut = test.lastIndexOf("/");
      return cut > 0 ? [`${pkg}\u0000${test.slice(0, cut)}`] : [];
    }),
  );
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const failing: string[] = [];
  const packagesWithFailingTests = new Set<string>();
  for (const [key, action] of outcome) {
    if (parents.has(key)) continue;
    const [pkg = "", test = ""] = key.split("\u0000");
    if (action === "pass") counts.passed += 1;
    else if (action === "skip") counts.skipped += 1;
    else {
      counts.failed += 1;
      failing.push(test);
      packagesWithFailingTests.add(pkg);
    }
  }
  for (const pkg of failedPackages) {
    if (packagesWithFailingTests.has(pkg)) continue;
    counts.failed += 1;
    failing.push(`${pkg} (package failed)`);
  }
  return testResults({ runner: "go", ...counts, failingTests: failing, source: "reporter" });
}
