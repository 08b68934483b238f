import type { ApprovalPolicy } from "@/server/domain/policy/approval-policy";
import { type CommandPart, type Redirection, splitShellCommand } from "@/server/domain/shell/split";
import { type ShellWord, summarise } from "@/server/domain/shell/vocabulary";
import type { ActiveIntent } from "@/server/governance/intent-gate";
import { imageFolderNamedBy } from "@/server/governance/protected-paths";
import { isInScope, protectionOf, resolveWorkspacePath } from "@/server/governance/scope";
import { type ApprovalDecision, approve, ask, deny } from "./decision";
import {
  describePattern,
  isPreApproved,
  matchAllowList,
  matchDenyList,
  type PreApprovals,
  setsExecutionEnv,
} from "./policy";
import { argumentEffects } from "./program-arguments";

/**
 * The approval rules for `shell.exec`, in order: a denied program anywhere (including inside
 * substitutions, `-c` strings, wrappers and `find -exec`) denies; a line that cannot be analysed or
 * uses a construct that hides what runs is asked, never approved; output redirected outside the owned
 * scope or onto a protected path is asked, and so is a file an argument makes a program write
 * (`sort -o`, `git log --output=`, uniq's second operand); a line whose every part is on the
 * allow-list and whose arguments neither write nor run anything is approved; a pre-approved shell
 * category approves what is left, except programs the deny list names.
 */
export function decideShellCommand(input: {
  command: string;
  activeIntent: ActiveIntent;
  policy: ApprovalPolicy;
  preApprovals: PreApprovals;
}): ApprovalDecision {
  const { command, activeIntent, policy, preApprovals } = input;
  const parsed = splitShellCommand(command);
  if (!parsed.ok)
    return ask(`The command could not be analysed (${parsed.reason}); a person must read it.`, true);
  const programs = parsed.parts.flatMap((part) => part.executes);
  for (const program of programs) {
    const match = matchDenyList(program, policy.denyCommands);
    if (match.level === "denied")
      return deny(
        `The command runs ${program.name}, which the deny rule "${describePattern(match.pattern)}" forbids.`,
      );
  }
  if (programs.length === 0) return ask("The command runs no program; a person must read it.", true);
  if (parsed.constructs.length > 0) {
    const details = [...new Set(parsed.constructs.map((c) => `${c.kind} (${c.detail})`))].join("; ");
    return ask(`The command uses shell features that can hide what runs: ${details}.`, true);
  }
  const changesDirectory = parsed.parts.some((part) => ["cd", "pushd", "popd"].includes(part.program ?? ""));
  const problems = parsed.parts.flatMap((part) =>
    part.redirections.map((r) => redirectionProblem(r, activeIntent, changesDirectory)),
  );
  const problem = problems.find((p) => p !== null);
  if (problem) return ask(`The command writes output ${problem}.`, true);
  const imageFolder = parsed.parts
    .flatMap((part) => [...part.assignments, ...part.words, ...part.redirections.map((r) => r.target)])
    .map((word) => imageFolderNamedBy(word.text))
    .find((folder) => folder !== null);
  if (imageFolder)
    return ask(
      `The command names ${imageFolder}/, which sets the sandbox image of later sessions; it always needs a person.`,
      true,
    );
  const effects = parsed.parts.map((part) => argumentEffects(part.words));
  const writeProblem = effects
    .flatMap((effect) => effect?.writes ?? [])
    .map((target) => writeTargetProblem(target, activeIntent, changesDirectory))
    .find((p) => p !== null);
  if (writeProblem) return ask(`The command writes a file ${writeProblem}.`, true);
  const notReadOnly = [...new Set(effects.flatMap((effect) => notReadOnlyReasons(effect)))];
  const allowed = parsed.parts.map((part) => allowedBy(part, policy));
  if (notReadOnly.length === 0 && allowed.every((pattern) => pattern !== null))
    return approve(`Every part of the command is on the allow-list (${[...new Set(allowed)].join(", ")}).`);
  const near = programs.find((program) => matchDenyList(program, policy.denyCommands).level === "near");
  if (near)
    return ask(
      `The command runs ${near.name}, which the deny list names; only an allow rule can approve it.`,
      true,
    );
  // A pre-approval covers commands whose effects are unknown; one that names a protected path (`cp x
  // .git/config`, `tee .env`) may write it, and protected paths always need a person.
  const named = parsed.parts.flatMap((part) => part.words.slice(1)).find((word) => namesProtectedPath(word));
  if (named && isPreApproved(preApprovals, "shell"))
    return ask(`The command names ${summarise(named.text)}, a protected path; a person must read it.`, true);
  if (isPreApproved(preApprovals, "shell"))
    return approve("Shell commands are pre-approved for this run or project.");
  if (notReadOnly.length > 0)
    return ask(
      `The command is not read-only: ${notReadOnly.join("; ")}. Run: ${summarise(command, 200)}`,
      true,
    );
  return ask(`Run: ${summarise(command, 200)}`, true);
}

/** A literal argument (or an option's `=value`) that is a protected workspace path. */
function namesProtectedPath(word: ShellWord): boolean {
  if (!word.literal) return false;
  const candidates = [word.text, word.text.slice(word.text.indexOf("=") + 1)];
  return candidates.some((text) => {
    const resolved = resolveWorkspacePath(text);
    return resolved.ok && resolved.relative !== "" && protectionOf(resolved.relative) !== null;
  });
}

/** Why arguments keep an allow-listed program from running unasked: what they write or run. */
function notReadOnlyReasons(effect: ReturnType<typeof argumentEffects>): string[] {
  if (!effect) return [];
  return [...effect.unsafe, ...effect.writes.map((target) => `it writes ${summarise(target.text)}`)];
}

/** The allow pattern a part matches, as text; a part that runs nothing needs none. */
function allowedBy(part: CommandPart, policy: ApprovalPolicy): string | null {
  if (part.words.length === 0) return setsExecutionEnv(part) ? null : "no program";
  const pattern = matchAllowList(part, policy.allowCommands);
  return pattern ? describePattern(pattern) : null;
}

const OUTPUT_SINKS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2"]);

function redirectionProblem(
  redirection: Redirection,
  intent: ActiveIntent,
  changesDirectory: boolean,
): string | null {
  if (redirection.kind !== "write") return null;
  return writeTargetProblem(redirection.target, intent, changesDirectory);
}

/** Why writing `target` needs a person whatever the policy says (outside the scope, protected), or null. */
function writeTargetProblem(
  target: ShellWord,
  intent: ActiveIntent,
  changesDirectory: boolean,
): string | null {
  if (!target.literal) return `to a path computed at run time (${summarise(target.text)})`;
  if (OUTPUT_SINKS.has(target.text)) return null;
  // After `cd`, a relative target is relative to somewhere this analysis cannot know.
  if (changesDirectory && !target.text.startsWith("/")) return `to ${target.text} after changing directory`;
  const resolved = resolveWorkspacePath(target.text);
  if (!resolved.ok) return `to ${target.text}: ${resolved.reason}`;
  const protectedReason = protectionOf(resolved.relative);
  if (protectedReason) return `to ${resolved.relative}, a protected path (${protectedReason})`;
  if (!isInScope(resolved.relative, intent.ownedScope))
    return `to ${resolved.relative}, outside ${intent.id}'s owned scope`;
  return null;
}
