import { shellQuote } from "@/server/sandbox/shell";
import type { ExecResult } from "@/server/sandbox/types";
import { packageScriptName, planTestCommand, type ReportFormat, type TestCommandPlan } from "./command";
import { parseTestRun } from "./parse-run";
import type { TestResults } from "./results";

/** Runs a command in the sandbox's /workspace (the verifier's `Exec`). */
export type RunInSandbox = (command: string) => Promise<ExecResult>;

/**
 * The runnable form of a test check, reading what it needs from the sandbox: when the command runs a
 * package script (`npm test`), that script's text from package.json. Reads only; runs no test.
 */
export async function planTestCheck(
  exec: RunInSandbox,
  command: string,
  framework: string | null = null,
): Promise<TestCommandPlan> {
  const name = packageScriptName(command);
  return planTestCommand(command, { script: name ? await readScript(exec, name) : null, framework });
}

async function readScript(exec: RunInSandbox, name: string): Promise<string | null> {
  const read = await exec("cat package.json");
  if (read.exitCode !== 0 || read.truncated) return null;
  try {
    const scripts: unknown = JSON.parse(read.stdout)?.scripts;
    const script = scripts && typeof scripts === "object" ? (scripts as Record<string, unknown>)[name] : null;
    return typeof script === "string" ? script : null;
  } catch {
    return null;
  }
}

/**
 * Runs a planned test check and reads its counts: from the report file when the plan added a reporter
 * (read, then removed, so a later run can never read this one's report), else from the output's
 * closing lines. A report cut by the output cap does not parse, and the summary lines decide.
 *
 * @public Not called yet: the checks Arbor runs itself with a machine-readable reporter (#15) use it.
 */
export async function runTestCheck(
  exec: RunInSandbox,
  plan: TestCommandPlan,
): Promise<{ result: ExecResult; tests: TestResults | null }> {
  const result = await exec(plan.command);
  let report: { format: ReportFormat; text: string } | null = null;
  if (plan.report) {
    const path = shellQuote(plan.report.path);
    const read = await exec(`cat -- ${path} && rm -f -- ${path}`);
    if (read.exitCode === 0 && !read.truncated) report = { format: plan.report.format, text: read.stdout };
  }
  const output = [result.stdout, result.stderr].filter(Boolean).join("\n");
  return { result, tests: parseTestRun({ runners: plan.runners, report, output }) };
}
