import picomatch from "picomatch";
import {
  CHANGED_FILES_COMMAND,
  containsCommand,
  existsCommand,
  functionCommand,
} from "@/server/domain/contract/check-commands";
import { type CheckTestHints, checkRunOf } from "@/server/domain/contract/check-run";
import type { Criterion, CriterionResult } from "@/server/domain/contract/criteria";
import { countsVeto, describeCounts } from "@/server/domain/contract/test-results";
import { errorMessage } from "@/server/domain/errors";
import type { ExecResult } from "@/server/domain/sandbox-port";
import { keepTail } from "@/server/domain/text/cap";
import { couldNotRunReason } from "./could-not-run";
import { testsOfCheckRun, withoutReport } from "./test-runs/check-run-output";

/** The one thing verifiers need from a sandbox: run a command in /workspace and see what happened. */
export type Exec = (command: string) => Promise<ExecResult>;

const EVIDENCE_CHARS = 1_500;

function tail(text: string): string {
  return keepTail(text.trim(), EVIDENCE_CHARS);
}

function outputOf(result: ExecResult): string {
  return tail([result.stdout, result.stderr].filter(Boolean).join("\n"));
}

/** A check that could not run at all: never a pass, and the evidence says why. */
function notRunResult(criterion: Criterion, notRun: string, seen: string): CriterionResult {
  return {
    criterion,
    passed: false,
    couldNotRun: notRun,
    evidence: `could not run: ${notRun}${seen ? `\n${seen}` : ""}`,
  };
}

async function byExitCode(
  exec: Exec,
  criterion: Criterion,
  command: string,
  summarize: (ok: boolean) => string,
) {
  const result = await exec(command);
  const seen = outputOf(result);
  const notRun = couldNotRunReason(command, result);
  if (notRun !== null) return notRunResult(criterion, notRun, seen);
  const passed = result.exitCode === 0 && !result.timedOut;
  return { criterion, passed, evidence: `${summarize(passed)}${seen ? `\n${seen}` : ""}` };
}

/**
 * A test command's check: run the command the check shows (its reporter form when Arbor can add a
 * machine-readable reporter with certainty, check-run.ts; that is what the cards show and the
 * approval's hash binds) and read its counts from the report it printed, else from the runner's
 * closing lines. A run in which a test failed or no test ran is never a pass, whatever the exit code,
 * nor is one whose reporter was added but whose counts could not be read at all.
 */
async function byTestRun(
  exec: Exec,
  criterion: Criterion,
  named: string,
  hints: CheckTestHints,
): Promise<CriterionResult> {
  const run = checkRunOf(named, hints);
  const command = run.command;
  const result = await exec(command);
  const printed = [result.stdout, result.stderr].filter(Boolean).join("\n");
  const seen = tail(withoutReport(run.report, printed));
  const notRun = couldNotRunReason(command, result);
  if (notRun !== null) return notRunResult(criterion, notRun, seen);
  const tests = testsOfCheckRun(run, printed);
  const exitedOk = result.exitCode === 0 && !result.timedOut;
  const unread =
    run.report !== null && tests === null ? "no test counts could be read from its report or output" : null;
  const veto = tests ? countsVeto(tests) : unread;
  const passed = exitedOk && veto === null;
  let summary = `\`${command}\` ${exitedOk ? "exited 0" : "failed"}`;
  if (tests) summary += `: ${describeCounts(tests)}`;
  if (exitedOk && veto) summary += ` (not a pass: ${veto})`;
  else if (tests && tests.failingTests.length > 0) summary += `\nfailing: ${tests.failingTests.join(", ")}`;
  return {
    criterion,
    passed,
    evidence: `${summary}${seen ? `\n${seen}` : ""}`.slice(0, EVIDENCE_MAX),
    ...(tests ? { tests } : {}),
    // The node shows the exact command that ran when it is not the criterion's text.
    ...(command !== named ? { ranCommand: command.slice(0, 4_000) } : {}),
  };
}

const EVIDENCE_MAX = 4_000;

/**
 * The exec of a check refused to run it: a sandbox that is gone, a gate that denied it, a person who
 * has not answered. Thrown by an Exec; verifyCriterion turns it (and any other throw) into "could not run".
 */
export class CheckNotRun extends Error {}

/**
 * Checks one criterion inside the sandbox. Never throws: a check that failed is `passed: false`, and
 * one that could not run at all (its exec threw) says so in `couldNotRun`, which is never a pass.
 */
export async function verifyCriterion(
  exec: Exec,
  criterion: Criterion,
  /** What discovery read from the workspace, for the test command's reporter form (check-run.ts). */
  hints: CheckTestHints = {},
): Promise<CriterionResult> {
  try {
    return await runCriterion(exec, criterion, hints);
  } catch (error) {
    const why =
      error instanceof CheckNotRun ? error.message : `the sandbox could not run it: ${errorMessage(error)}`;
    return {
      criterion,
      passed: false,
      couldNotRun: why.slice(0, 1_000),
      evidence: tail(`could not run: ${why}`),
    };
  }
}

async function runCriterion(
  exec: Exec,
  criterion: Criterion,
  hints: CheckTestHints,
): Promise<CriterionResult> {
  switch (criterion.kind) {
    case "FILE_EXISTS":
      return byExitCode(exec, criterion, existsCommand(criterion.path), (ok) =>
        ok ? `${criterion.path} exists` : `${criterion.path} does not exist`,
      );
    case "FILE_CONTAINS":
      return byExitCode(exec, criterion, containsCommand(criterion.path, criterion.text), (ok) =>
        ok ? `found in ${criterion.path}:` : `"${criterion.text}" not found in ${criterion.path}`,
      );
    case "TESTS_PASS":
      return byTestRun(exec, criterion, criterion.command, hints);
    case "FUNCTION_EXISTS": {
      const name = criterion.name;
      const command = functionCommand(name, criterion.path);
      return byExitCode(exec, criterion, command, (ok) =>
        ok ? `definition of ${name} found:` : `no definition of ${name} found`,
      );
    }
    case "GENERATED_TEST_PASSES": {
      const exists = await exec(existsCommand(criterion.path));
      const notRun = couldNotRunReason("test -e", exists);
      if (notRun !== null)
        return { criterion, passed: false, couldNotRun: notRun, evidence: `could not run: ${notRun}` };
      if (exists.exitCode !== 0)
        return { criterion, passed: false, evidence: `the generated test ${criterion.path} does not exist` };
      return byTestRun(exec, criterion, criterion.command, hints);
    }
    case "LAYER_APPROPRIATE": {
      const listed = await exec(CHANGED_FILES_COMMAND);
      const notRun = couldNotRunReason("git diff", listed);
      if (notRun !== null)
        return { criterion, passed: false, couldNotRun: notRun, evidence: `could not run: ${notRun}` };
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
export async function verifyContract(
  exec: Exec,
  criteria: readonly Criterion[],
  hints: CheckTestHints = {},
): Promise<CriterionResult[]> {
  const results: CriterionResult[] = [];
  for (const criterion of criteria) results.push(await verifyCriterion(exec, criterion, hints));
  return results;
}
