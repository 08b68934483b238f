import { shellQuote } from "@/server/domain/text/shell-quote";
import { type CheckTestHints, checkRunOf } from "./check-run";
import type { Criterion } from "./criteria";

/**
 * The shell commands the verifiers run, one place: what verify.ts executes and what a decomposition
 * card lists before it is approved (and its approval binds by hash). Pure, so the card can show them.
 */

export const existsCommand = (path: string) => `test -e ${shellQuote(path)}`;
export const containsCommand = (path: string, text: string) =>
  `grep -n -F -m 3 -- ${shellQuote(text)} ${shellQuote(path)}`;
export const CHANGED_FILES_COMMAND =
  "{ git diff --name-only HEAD; git ls-files --others --exclude-standard; git log --name-only --format= origin/HEAD..HEAD 2>/dev/null; } | sort -u";

export function functionCommand(name: string, path: string | null): string {
  // Definitions in the common languages: def/function/func/fn/class, and `name = (…) =>` / `name(…) {`.
  const pattern = `(def|function|func|fn|class|interface|type)[[:space:]]+${name}\\b|\\b${name}[[:space:]]*[:=][[:space:]]*(async[[:space:]]*)?(\\(|function)|^[[:space:]]*(async[[:space:]]+)?${name}[[:space:]]*\\([^)]*\\)[[:space:]]*\\{`;
  const where = path ? shellQuote(path) : ".";
  return `grep -rnE -m 3 --exclude-dir=.git --exclude-dir=node_modules -- ${shellQuote(pattern)} ${where}`;
}

/**
 * Exactly the shell commands checking `criterion` runs, in order: what a decomposition card lists
 * ("these checks will run without asking") and what a person's approval of it is bound to, by hash.
 * A test command is the form that runs, with its reporter (check-run.ts), from the same `hints`.
 */
export function checkCommandsOf(criterion: Criterion, hints: CheckTestHints = {}): string[] {
  switch (criterion.kind) {
    case "FILE_EXISTS":
      return [existsCommand(criterion.path)];
    case "FILE_CONTAINS":
      return [containsCommand(criterion.path, criterion.text)];
    case "TESTS_PASS":
      return [checkRunOf(criterion.command, hints).command];
    case "FUNCTION_EXISTS":
      return [functionCommand(criterion.name, criterion.path)];
    case "GENERATED_TEST_PASSES":
      return [existsCommand(criterion.path), checkRunOf(criterion.command, hints).command];
    case "LAYER_APPROPRIATE":
      return [CHANGED_FILES_COMMAND];
  }
}
