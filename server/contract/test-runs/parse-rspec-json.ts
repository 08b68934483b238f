import { z } from "zod";
import { type TestResults, testResults } from "@/server/domain/contract/test-results";

/**
 * RSpec's `--format json` report: one entry per example with its status (passed, failed, pending).
 * Errors outside of examples (a spec file that does not load) fail the run without failing an example:
 * they count as one failure each.
 */
const RspecReport = z.object({
  examples: z.array(
    z.object({ full_description: z.string(), status: z.string(), id: z.string().optional() }),
  ),
  summary: z.object({ errors_outside_of_examples_count: z.number().int().nonnegative().default(0) }),
});

export function parseRspecJson(text: string): TestResults | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const report = RspecReport.safeParse(json);
  if (!report.success) return null;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const failing: string[] = [];
  for (const example of report.data.examples) {
    if (example.status === "passed") counts.passed += 1;
    else if (example.status === "failed") {
      counts.failed += 1;
      failing.push(example.full_description);
    } else counts.skipped += 1;
  }
  const outside = report.data.summary.errors_outside_of_examples_count;
  if (outside > 0) {
    counts.failed += outside;
    failing.push(`${outside} error${outside === 1 ? "" : "s"} outside of examples`);
  }
  return testResults({ runner: "rspec", ...counts, failingTests: failing, source: "reporter" });
}
