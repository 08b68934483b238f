import picomatch from "picomatch";
import { keepTail } from "@/server/domain/text/cap";
import { errorMessage } from "@/server/orchestrator/errors";
import type { ExecResult } from "@/server/sandbox/types";
import { CHANGED_FILES_COMMAND, containsCommand, existsCommand, functionCommand } from "./check-commands";
import { couldNotRunReason } from "./could-not-run";
import type { Criterion, CriterionResult } from "./criteria";
import { testsOfOutput } from "./test-runs/parse-run";
import { countsVeto, describeCounts } from "./test-runs/results";
import { planTestCheck } from "./test-runs/test-check";

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
 * A test command's check: run exactly the command (what the card showed and the approval's hash
 * binds) and read its counts from the runner's closing lines. A run in which a test failed or no test
 * ran is never a pass, whatever the exit code; the evidence names the counts and the failing tests.
 * (A machine-readable reporter is not added here yet: the card and the binding would have to show
 * the command with it, and reading its report file back is one more command through the door.)
 */
async function byTestRun(exec: Exec, criterion: Criterion, command: string): Promise<CriterionResult> {
  const result = await exec(command);
  const seen = outputOf(result);
  const notRun = couldNotRunReason(command, result);
  if (notRun !== null) return notRunResult(criterion, notRun, seen);
  const tests = testsOfOutput(command, [result.stdout, result.stderr].filter(Boolean).join("\n"));
  const exitedOk = result.exitCode === 0 && !result.timedOut;
  const veto = tests ? countsVeto(tests) : null;
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
export async function verifyCriterion(exec: Exec, criterion: Criterion): Promise<CriterionResult> {
  try {
    return await runCriterion(exec, criterion);
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

async function runCriterion(exec: Exec, criterion: Criterion): Promise<CriterionResult> {
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
      return byTestRun(exec, criterion, criterion.command);
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
      return byTestRun(exec, criterion, criterion.command);
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
export async function verifyContract(exec: Exec, criteria: readonly Criterion[]): Promise<CriterionResult[]> {
  const results: CriterionResult[] = [];
  for (const criterion of criteria) results.push(await verifyCriterion(exec, criterion));
  return results;
}

/**
 * The command a test check would run with a machine-readable reporter added (reads package.json for
 * `npm test`; runs no test). Not used by checks yet (see byTestRun); kept for the card that will show it.
 */
export async function runnableCheckCommand(exec: Exec, criterion: Criterion): Promise<string | null> {
  if (criterion.kind !== "TESTS_PASS" && criterion.kind !== "GENERATED_TEST_PASSES") return null;
  return (await planTestCheck(exec, criterion.command)).command;
}
