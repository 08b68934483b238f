import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { gateCommand } from "./command-gate";

/**
 * Issue #16.1's probe: under the default policy ("ask unless read-only") these ran without a click,
 * because the gate checked redirections and not the options and operands that write. Each one wrote
 * a file that runs code later (`~/.bashrc`, `.git/config` with `core.fsmonitor`) or clobbered one.
 */
const DEFAULT = CheckpointPolicy.parse({});

describe("gateCommand: read-only programs whose arguments write", () => {
  it.each([
    "git log --oneline -1 --output=/home/arbor/.bashrc",
    "git diff --output=notes.txt",
    "sort -o package.json /etc/hostname",
    "uniq /etc/passwd .env",
    "git log -1 --format=%H --output=.git/config",
  ])("asks before the probe %j", (command) => {
    expect(gateCommand(command, "i1", DEFAULT).decision).toBe("ask");
  });

  it.each([
    ["git diff --output=notes.txt", "writes notes.txt"],
    ["uniq a.txt b.txt", "writes b.txt"],
    ["sort --compress-program=sh a.txt", "runs the program it names"],
    ["git diff --ext-diff", "external diff"],
    ["git branch evil", "creates a branch"],
    ["git branch --edit-description", "may change branches"],
    ["tree -R -H x .", "00Tree.html"],
  ])("says why %j is not read-only", (command, why) => {
    const decision = gateCommand(command, "i1", DEFAULT);
    expect(decision.decision).toBe("ask");
    expect(decision.reason).toContain(why);
  });

  it.each([
    ["git log --output=.git/config", "protected"],
    ["sort -o /home/arbor/.bashrc x", "outside /workspace"],
    ["uniq x ../outside", "outside /workspace"],
  ])("asks for %j (%s) even when the project never asks", (command, why) => {
    const decision = gateCommand(command, "i1", CheckpointPolicy.parse({ commands: "never-ask" }));
    expect(decision).toMatchObject({ decision: "ask", confirm: true });
    expect(decision.reason).toContain(why);
  });

  it.each([
    "sort -r -k 2 data.txt",
    "sort -t, -k2n data.txt",
    "uniq -c data.txt",
    "git log --oneline -5",
    "git diff --stat HEAD~1",
    "git show --stat HEAD",
    "git branch --show-current",
    "git branch -a -v",
    "git status --porcelain",
    "tree -L 2 src",
    "ls -la",
  ])("still runs the read-only %j without a click", (command) => {
    expect(gateCommand(command, "i1", DEFAULT).decision).toBe("approve");
  });
});

describe("gateCommand: protected paths under a pre-approved shell", () => {
  const never = CheckpointPolicy.parse({ commands: "never-ask" });

  it.each([
    "cp /tmp/evil .git/config",
    "tee .git/hooks/pre-commit",
    "git config --file=.git/config core.fsmonitor x",
    "ln -sf /tmp/x .env",
    "cp /tmp/rules.md AGENTS.md",
    "tee packages/web/CLAUDE.md",
  ])("asks before %j, which names a protected path", (command) => {
    const decision = gateCommand(command, "i1", never);
    expect(decision).toMatchObject({ decision: "ask", confirm: true });
    expect(decision.reason).toContain("protected path");
  });

  it("still runs an unlisted command that names no protected path", () => {
    expect(gateCommand("cp src/a.ts src/b.ts", "i1", never).decision).toBe("approve");
  });
});

describe("gateCommand: sed, when a project allow-lists it", () => {
  const withSed = CheckpointPolicy.parse({ allowCommands: [{ program: "sed" }] });

  it.each(["sed -n '1,5p' a.txt", "sed 's/a/b/g' a.txt", "sed -E -e 's|x|y|2' -e '/^#/d' a.txt"])(
    "runs the read-only %j",
    (command) => {
      expect(gateCommand(command, "i1", withSed).decision).toBe("approve");
    },
  );

  it.each(["sed -i 's/a/b/' a.txt", "sed 's/a/b/w out' a.txt", "sed '1e id' a.txt", "sed -f x.sed a.txt"])(
    "asks before %j",
    (command) => {
      expect(gateCommand(command, "i1", withSed).decision).toBe("ask");
    },
  );
});

describe("gateCommand: computed arguments", () => {
  it.each(["file src/*.ts", "sort -r data/*.csv", "file -- *", "date +%s"])(
    "runs %j: a glob with a plain prefix, or after --, cannot become an option",
    (command) => {
      expect(gateCommand(command, "i1", DEFAULT).decision).toBe("approve");
    },
  );

  it.each(["file *", "sort $OPTS data.csv", "sort src/$X", "uniq data/*.csv", "uniq -- $IN"])(
    "asks before %j: the shell may turn it into an option or an output operand",
    (command) => {
      expect(gateCommand(command, "i1", DEFAULT).decision).toBe("ask");
    },
  );
});
