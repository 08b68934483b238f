import picomatch from "picomatch";
import { shellQuote } from "@/server/sandbox/shell";
import type { ExecResult } from "@/server/sandbox/types";
import type { Criterion, CriterionResult } from "./criteria";
import { countsVeto, describeCounts } from "./test-runs/results";
import { planTestCheck, runTestCheck } from "./test-runs/test-check";

/** The one thing verifiers need from a sandbox: run a command in /workspace and see what happened. */
export type Exec = (command: string) => Promise<ExecResult>;

const EVIDENCE_CHARS = 1_500;

function tail(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= EVIDENCE_CHARS ? trimmed : `…${trimmed.slice(-EVIDENCE_CHARS)}`;
}

function outputOf(result: ExecResult): string {
  return tail([result.stdout, result.stderr].filter(Boolean).join("\n"));
}

async function byExitCode(
  exec: Exec,
  criterion: Criterion,
  command: string,
  summarize: (ok: boolean) => string,
) {
  const result = await exec(command);
  const passed = result.exitCode === 0 && !result.timedOut;
  const seen = outputOf(result);
  return { criterion, passed, evidence: `${summarize(passed)}${seen ? `\n${seen}` : ""}` };
}

const EVIDENCE_MAX = 4_000;

/**
 * A test command's check: run its runnable form (with a reporter where one can be added) and read the
 * counts. A run in which a test failed or no test ran is never a pass, whatever the exit code; the
 * evidence names the command that really ran, the counts and the failing tests.
 */
async function byTestRun(exec: Exec, criterion: Criterion, command: string): Promise<CriterionResult> {
  const plan = await planTestCheck(exec, command);
  const { result, tests } = await runTestCheck(exec, plan);
  const exitedOk = result.exitCode === 0 && !result.timedOut;
  const veto = tests ? countsVeto(tests) : null;
  const passed = exitedOk && veto === null;
  let summary = `\`${plan.command}\` ${exitedOk ? "exited 0" : "failed"}`;
  if (tests) summary += `: ${describeCounts(tests)}`;
  if (exitedOk && veto) summary += ` (not a pass: ${veto})`;
  else if (tests && tests.failingTests.length > 0) summary += `\nfailing: ${tests.failingTests.join(", ")}`;
  const seen = outputOf(result);
  return {
    criterion,
    passed,
    evidence: `${summary}${seen ? `\n${seen}` : ""}`.slice(0, EVIDENCE_MAX),
    ...(tests ? { tests } : {}),
    ...(plan.command !== command ? { ranCommand: plan.command } : {}),
  };
}

/** Checks one criterion inside the sandbox. Never throws for a failed check; only for a sandbox that cannot run. */
export async function verifyCriterion(exec: Exec, criterion: Criterion): Promise<CriterionResult> {
  switch (criterion.kind) {
    case "FILE_EXISTS":
      return byExitCode(exec, criterion, `test -e ${shellQuote(criterion.path)}`, (ok) =>
        ok ? `${criterion.path} exists` : `${criterion.path} does not exist`,
      );
    case "FILE_CONTAINS":
      return byExitCode(
        exec,
        criterion,
        `grep -n -F -m 3 -- ${shellQuote(criterion.text)} ${shellQuote(criterion.path)}`,
        (ok) => (ok ? `found in ${criterion.path}:` : `"${criterion.text}" not found in ${criterion.path}`),
      );
    case "TESTS_PASS":
      return byTestRun(exec, criterion, criterion.command);
    case "FUNCTION_EXISTS": {
      const name = criterion.name;
      // Definitions in the common languages: def/function/func/fn/class, and `name = (…) =>` / `name(…) {`.
      const pattern = `(def|function|func|fn|class|interface|type)[[:space:]]+${name}\\b|\\b${name}[[:space:]]*[:=][[:space:]]*(async[[:space:]]*)?(\\(|function)|^[[:space:]]*(async[[:space:]]+)?${name}[[:space:]]*\\([^)]*\\)[[:space:]]*\\{`;
      const where = criterion.path ? shellQuote(criterion.path) : ".";
      const command = `grep -rnE -m 3 --exclude-dir=.git --exclude-dir=node_modules -- ${shellQuote(pattern)} ${where}`;
      return byExitCode(exec, criterion, command, (ok) =>
        ok ? `definition of ${name} found:` : `no definition of ${name} found`,
      );
    }
    case "GENERATED_TEST_PASSES": {
      const exists = await exec(`test -e ${shellQuote(criterion.path)}`);
      if (exists.exitCode !== 0)
        return { criterion, passed: false, evidence: `the generated test ${criterion.path} does not exist` };
      return byTestRun(exec, criterion, criterion.command);
    }
    case "LAYER_APPROPRIATE": {
      const listed = await exec(
        "{ git diff --name-only HEAD; git ls-files --others --exclude-standard; git log --name-only --format= origin/HEAD..HEAD 2>/dev/null; } | sort -u",
      );
      const changed = listed.stdout.split("\n").filter(Boolean);
      const allowed = picomatch(criterion.allowed, { dot: true });
      const outside = changed.filter((file) => !allowed(file));
      const passed = listed.exitCode === 0 && outside.length === 0;
      const evidence =
        outside.length > 0
          ? `outside the allowed layers: ${outside.join(", ")}`
          : `${changed.length} changed files, all inside`;
      return { criterion, passed, evidence: tail(evidence) };
    }
  }
}

/** Checks a whole contract, in order; every criterion is checked even after one fails, for the full gap. */
export async function verifyContract(exec: Exec, criteria: readonly Criterion[]): Promise<CriterionResult[]> {
  const results: CriterionResult[] = [];
  for (const criterion of criteria) results.push(await verifyCriterion(exec, criterion));
  return results;
}

/**
 * The exact command a criterion's check runs: a test command in its runnable form (with the reporter
 * Arbor adds where it can), what a card should show and an approval's binding should hash; null for
 * criteria that run no command of the contract's own. Reads package.json for `npm test`; runs nothing.
 */
export async function runnableCheckCommand(exec: Exec, criterion: Criterion): Promise<string | null> {
  if (criterion.kind !== "TESTS_PASS" && criterion.kind !== "GENERATED_TEST_PASSES") return null;
  return (await planTestCheck(exec, criterion.command)).command;
}
