import { describe, expect, it } from "vitest";
import { historyRewriteReason } from "./history-guard";

describe("the history guard on shell commands", () => {
  it.each([
    "git push --force",
    "git push -f origin main",
    "git push --force-with-lease",
    "git push origin +main",
    "git push origin :main",
    "git push --delete origin main",
    "git push --mirror",
    "git -C /workspace push -uf origin main",
    "git rebase -i HEAD~3",
    "git commit --amend -m x",
    "git commit --amend --no-edit",
    "git reset --hard HEAD~1",
    "git reset --soft HEAD^",
    "git reset HEAD~2",
    "git reset abc1234",
    "git filter-branch --tree-filter 'rm x' HEAD",
    "git update-ref refs/heads/main HEAD~1",
    "git reflog expire --expire=now --all",
    "git gc --prune=now",
    "git branch -f main HEAD~1",
    "git branch -D feature",
    "git checkout -B main",
    "git switch -C main",
    "git tag -f v1",
    "ls && git push --force",
    "echo ok; git rebase main",
    "bash -c 'git push --force'",
    "echo $(git push -f)",
    "sudo git push --force",
    "env GIT_DIR=.git git push --force",
    "git -c alias.up='push --force' up",
    "git push $FLAGS",
    "FLAG=--force; git push $FLAG",
    "git $CMD --force",
    "find . -exec git reset --hard \\;",
    "git push --force 'unbalanced",
  ])("refuses %j", (command) => {
    expect(historyRewriteReason(command)).not.toBeNull();
  });

  it.each([
    "git status",
    "git log --oneline -5",
    "git diff --cached",
    "git add -A && git commit -m 'Add login'",
    "git push origin main",
    "git reset -q",
    "git reset -- src/a.ts",
    "git branch feature",
    "git branch -d merged",
    "git checkout -b feature",
    "git switch main",
    "npm test",
    "echo force push rebase",
    "grep -r --force x .",
  ])("lets %j through to the approval gate", (command) => {
    expect(historyRewriteReason(command)).toBeNull();
  });
});
