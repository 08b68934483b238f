import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyRewriteReason } from "./history-guard";

/**
 * "No tool can force-push or rewrite history", over generated command lines: every way of writing a
 * rewrite, chained, wrapped, nested or computed, is refused; everyday git and shell lines are not.
 */
const REWRITES = [
  "git push --force",
  "git push -f origin main",
  "git push --force-with-lease origin HEAD",
  "git push origin +main",
  "git push origin :main",
  "git push --mirror",
  "git -C /workspace push -fu origin main",
  "git -c core.editor=true rebase -i HEAD~2",
  "git rebase main",
  "git commit --amend -m again",
  "git reset --hard HEAD~1",
  "git reset --soft HEAD^",
  "git filter-branch --tree-filter true HEAD",
  "git update-ref refs/heads/main HEAD~1",
  "git reflog expire --expire=now --all",
  "git branch -f main HEAD~1",
  "git checkout -B main",
  "git pu''sh --force",
  '"git" push --force',
  "/usr/bin/git push --force",
  "$'\\x67it' push --force",
  "$(echo git) push -f",
  "g$@it push -f",
  "echo git push --force | bash",
  "echo push --force | xargs git",
  "python3 -c \"import os; os.system('git push --force')\"",
] as const;

const EVERYDAY = [
  "npm test",
  "git status",
  "git add -A",
  "git commit -m 'Add login'",
  "git log --oneline -5",
  "git diff --cached",
  "ls -la",
  "rm -f $(find . -name '*.o')",
  "git push origin main",
  "git checkout -b feature",
] as const;

type Wrap = (core: string) => string;
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const WRAPS: ReadonlyArray<Wrap> = [
  (core) => core,
  (core) => `echo "$(${core})"`,
  (core) => `(${core})`,
  (core) => `{ ${core}; }`,
  (core) => `bash -c ${quote(core)}`,
  (core) => `sh -c ${quote(core)}`,
  (core) => `eval ${quote(core)}`,
  (core) => `sudo ${core}`,
  (core) => `env GIT_TRACE=0 ${core}`,
  (core) => `timeout 60 ${core}`,
  (core) => `${core} > /dev/null 2>&1`,
  (core) => `# comment\n${core}`,
  (core) => `if true; then ${core}; fi`,
];
const SEPARATORS = [" && ", " || ", "; ", " | ", "\n", " & "];
const chain = (parts: readonly string[], separator: string) => parts.join(separator);

describe("the history guard over generated lines", () => {
  it("refuses every rewrite × every wrapping (≥ 300 lines)", () => {
    const lines = REWRITES.flatMap((core) =>
      WRAPS.map((wrap, i) =>
        chain(["npm test", wrap(core), "git status"], SEPARATORS[i % SEPARATORS.length] ?? ";"),
      ),
    );
    expect(lines.length).toBeGreaterThanOrEqual(300);
    expect(lines.filter((line) => historyRewriteReason(line) === null)).toEqual([]);
  });

  it("refuses random chains of everyday commands with a rewrite anywhere in them", () => {
    const line = fc
      .record({
        core: fc.constantFrom(...REWRITES),
        wrap: fc.constantFrom(...WRAPS),
        before: fc.array(fc.constantFrom(...EVERYDAY), { maxLength: 3 }),
        after: fc.array(fc.constantFrom(...EVERYDAY), { maxLength: 3 }),
        separator: fc.constantFrom(...SEPARATORS),
      })
      .map(({ core, wrap, before, after, separator }) => chain([...before, wrap(core), ...after], separator));
    fc.assert(
      fc.property(line, (command) => historyRewriteReason(command) !== null),
      { numRuns: 1_000, seed: 5 },
    );
  });

  it("lets everyday lines through, however they are chained", () => {
    const line = fc
      .array(fc.constantFrom(...EVERYDAY), { minLength: 1, maxLength: 5 })
      .chain((parts) => fc.constantFrom(...SEPARATORS).map((separator) => chain(parts, separator)));
    fc.assert(
      fc.property(line, (command) => historyRewriteReason(command) === null),
      { numRuns: 300, seed: 6 },
    );
  });
});
