import type { ExecutedProgram, ShellWord } from "@/server/domain/shell/split";
import { splitShellCommand } from "@/server/domain/shell/split";

/**
 * No tool may force-push or rewrite git history (issue #5). The git tools have no option that could;
 * this guards shell.exec: every git invocation in a command line — including ones hidden in
 * substitutions, `bash -c` strings and wrappers — is read, and one that force-pushes, rewrites,
 * moves or deletes history is refused outright. No setting and no person's approval lets it run.
 * When the line cannot be analysed, anything that mentions git and a rewriting word is refused.
 */
export function historyRewriteReason(command: string): string | null {
  const split = splitShellCommand(command);
  if (!split.ok) {
    return /\bgit\b/.test(command) && REWRITE_WORDS.test(command)
      ? "it mentions git and a history-rewriting operation in a form that cannot be analysed"
      : null;
  }
  for (const program of split.parts.flatMap((part) => part.executes)) {
    if (program.name !== "git") continue;
    const reason = gitRewrite(program);
    if (reason) return reason;
  }
  // What runs, or with which arguments, is decided at run time (`$(echo git) push -f`, `… | bash`,
  // `… | xargs git`, `python -c "…"`): judged on the text, since the structure cannot show it.
  const opaque = split.constructs.filter((construct) => OPAQUE.has(construct.kind));
  const computedProgram = opaque.some((construct) => construct.kind === "dynamic-program");
  if (opaque.length > 0 && REWRITE_WORDS.test(command) && (computedProgram || /git/i.test(command)))
    return "it may run git with a history-rewriting operation in a way that is only decided at run time";
  return null;
}

/** Constructs that hide which program runs or where its arguments come from. */
const OPAQUE = new Set(["dynamic-program", "shell-stdin", "indirect-exec", "inline-code"]);

const REWRITE_WORDS =
  /\b(push|rebase|amend|filter-branch|filter-repo|update-ref|reflog|reset|replace|prune)\b|--force|\s-f\b/;

/** Global options that take the next word as their value (`git -C dir status`). */
const VALUED_GLOBALS = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
]);

function gitRewrite(program: ExecutedProgram): string | null {
  const args = program.args;
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index] as ShellWord;
    if (!arg.literal) return "a git command whose options are computed at run time cannot be checked";
    if (arg.text === "-c" || arg.text.startsWith("--config-env")) {
      const value = args[index + 1];
      if (
        !value?.literal ||
        /^alias\./i.test(value.text) ||
        /^core\.(hookspath|sshcommand)/i.test(value.text)
      )
        return "git configuration given on the command line can turn any command into a rewrite";
    }
    if (VALUED_GLOBALS.has(arg.text)) {
      index++;
      continue;
    }
    if (!arg.text.startsWith("-")) break;
  }
  const sub = args[index]?.text;
  const rest = args.slice(index + 1);
  if (rest.some((word) => !word.literal))
    return `git ${sub}'s arguments are computed at run time, so they cannot be checked`;
  const words = rest.map((word) => word.text);
  const has = (...flags: string[]) =>
    words.some((word) => flags.some((flag) => word === flag || word.startsWith(`${flag}=`)));
  const shortFlag = (letters: string) =>
    words.some((word) => /^-[A-Za-z]+$/.test(word) && [...letters].some((letter) => word.includes(letter)));
  switch (sub) {
    case "push":
      if (
        has("--force", "--force-with-lease", "--force-if-includes", "--mirror", "--delete", "--prune") ||
        shortFlag("fd")
      )
        return "git push with a force, delete, mirror or prune option rewrites the remote's history";
      if (words.some((word) => word.startsWith("+") || word.startsWith(":")))
        return "a `+` or `:` refspec force-updates or deletes a remote branch";
      return null;
    case "rebase":
    case "filter-branch":
    case "filter-repo":
    case "replace":
    case "update-ref":
    case "prune":
      return `git ${sub} rewrites or removes history`;
    case "commit":
      return has("--amend") ? "git commit --amend rewrites the last commit" : null;
    case "reset":
      if (has("--hard", "--soft", "--keep", "--merge"))
        return "git reset with --hard, --soft, --keep or --merge moves the branch and can drop commits";
      if (words.some((word) => /[~^]|^(ORIG_HEAD|FETCH_HEAD|@\{)|^[0-9a-f]{7,40}$/.test(word)))
        return "git reset to another commit moves the branch and drops the commits after it";
      return null;
    case "reflog":
      return words[0] === "expire" || words[0] === "delete"
        ? "expiring the reflog destroys the record of history"
        : null;
    case "gc":
      return has("--prune") ? "git gc --prune removes unreachable commits" : null;
    case "branch":
      return has("--force", "--delete") || shortFlag("fDMC")
        ? "forcing, deleting or overwriting a branch can lose commits"
        : null;
    case "tag":
      return has("--force", "--delete") || shortFlag("fd")
        ? "moving or deleting a tag rewrites published history"
        : null;
    case "checkout":
      return shortFlag("B")
        ? "git checkout -B resets an existing branch"
        : has("--force") || shortFlag("f")
          ? "git checkout --force discards work"
          : null;
    case "switch":
      return has("--force-create", "--discard-changes", "--force") || shortFlag("C")
        ? "forcing a switch resets a branch or discards work"
        : null;
    default:
      return null;
  }
}
