import { z } from "zod";
import type { CommandPattern } from "@/server/domain/policy/approval-policy";
import type { ExecutedProgram } from "@/server/domain/shell/programs";
import type { CommandPart, ShellWord } from "@/server/domain/shell/split";
import { ToolCategory } from "@/server/domain/tools/risk";

/**
 * Seed 004's batch approval, by category: for this run only, or for every run of the project. A run's
 * pre-approval is granted by a person on an approval card and covers only moderate calls (a dangerous
 * delete or checkout still asks); `runGrantedBy` names who granted each category, for the gate's record.
 */
export const PreApprovals = z
  .object({
    run: z.array(ToolCategory).default([]),
    project: z.array(ToolCategory).default([]),
    runGrantedBy: z.partialRecord(ToolCategory, z.string().min(1).max(200)).default({}),
  })
  .strict();
export type PreApprovals = z.infer<typeof PreApprovals>;

export const NO_PRE_APPROVALS: PreApprovals = { run: [], project: [], runGrantedBy: {} };

export function isPreApproved(
  preApprovals: Pick<PreApprovals, "run" | "project">,
  category: ToolCategory,
): boolean {
  return preApprovals.run.includes(category) || preApprovals.project.includes(category);
}

/**
 * Deny matching over-matches on purpose: the program is compared by name (`/bin/rm` is `rm`) and the
 * pattern's arguments only need to appear in order (`git -C . push` matches `git push`). `near` means
 * the program is one the deny list names but the arguments differ or are computed at run time: such a
 * command is never auto-approved by a pre-approval, only by an explicit allow pattern.
 */
export type DenyMatch = { level: "denied"; pattern: CommandPattern } | { level: "near" } | { level: "clear" };

export function matchDenyList(program: ExecutedProgram, denyList: readonly CommandPattern[]): DenyMatch {
  if (!program.literal) return denyList.length > 0 ? { level: "near" } : { level: "clear" };
  let near = false;
  for (const pattern of denyList) {
    if (pattern.program !== program.name) continue;
    if (isSubsequence(pattern.args, program.args)) return { level: "denied", pattern };
    near = true;
  }
  return near ? { level: "near" } : { level: "clear" };
}

function isSubsequence(wanted: readonly string[], args: readonly ShellWord[]): boolean {
  let next = 0;
  for (const arg of args) {
    if (next < wanted.length && arg.literal && arg.text === wanted[next]) next += 1;
  }
  return next === wanted.length;
}

// Variables that change which program runs or what it loads; `PATH=./evil npm test` is not `npm test`.
const EXECUTION_ENV =
  /^(?:PATH|IFS|ENV|BASH_ENV|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|LD_\w+|DYLD_\w+|NODE_OPTIONS|NODE_PATH|PYTHON\w*|PERL5\w*|RUBYOPT|RUBYLIB|GIT_\w+|npm_config_\w+|NPM_CONFIG_\w+)$/;

export function setsExecutionEnv(part: CommandPart): boolean {
  return part.assignments.some(
    (word) => word.assignmentName !== null && EXECUTION_ENV.test(word.assignmentName),
  );
}

/**
 * Allow matching under-matches on purpose: the program must be written exactly as in the pattern (no
 * path: `./npm test` is not `npm test`), it must not run through a wrapper, the pattern's arguments
 * must be its first arguments, literally, and no assignment may change how it runs.
 */
export function matchAllowList(
  part: CommandPart,
  allowList: readonly CommandPattern[],
): CommandPattern | null {
  const [program, ...args] = part.words;
  if (!program?.literal || part.executes.length !== 1 || setsExecutionEnv(part)) return null;
  return (
    allowList.find(
      (pattern) =>
        pattern.program === program.text &&
        pattern.args.every((arg, i) => args[i]?.literal === true && args[i]?.text === arg),
    ) ?? null
  );
}

export function describePattern(pattern: CommandPattern): string {
  return [pattern.program, ...pattern.args].join(" ");
}
