import { describe, expect, it } from "vitest";
import { type ShellSplit, splitShellCommand } from "./split";

function ok(command: string): Extract<ShellSplit, { ok: true }> {
  const result = splitShellCommand(command);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(command)} to split, got: ${result.reason}`);
  return result;
}

/** Every program the line would run, including those behind wrappers and inside substitutions. */
function programs(command: string): string[] {
  return ok(command).parts.flatMap((part) => part.executes.map((program) => program.name));
}

function constructs(command: string): string[] {
  return [...new Set(ok(command).constructs.map((construct) => construct.kind))];
}

describe("splitShellCommand: parts and programs", () => {
  it.each([
    ["npm test", [["npm", "test"]]],
    [
      "npm test && git status",
      [
        ["npm", "test"],
        ["git", "status"],
      ],
    ],
    ["a || b; c | d & e", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    ["a\nb\n\nc", [["a"], ["b"], ["c"]]],
    ["a |& b", [["a"], ["b"]]],
    ["echo 'a && b' \"c; d\"", [["echo", "a && b", "c; d"]]],
    ["echo a\\;b", [["echo", "a;b"]]],
    ["echo a\\\n  b", [["echo", "a", "b"]]],
    ["r\\\nm -rf x", [["rm", "-rf", "x"]]],
    ["'r'\"m\" x", [["rm", "x"]]],
    ['echo "it\'s" \'say "hi"\'', [["echo", "it's", 'say "hi"']]],
    ['echo "a\\"b"', [["echo", 'a"b']]],
    ["echo a#b # comment; rm -rf /", [["echo", "a#b"]]],
    ["X=1 Y=2 npm test", [["npm", "test"]]],
    ["> out.txt", [[]]],
    ["a &&\n b", [["a"], ["b"]]],
  ])("%j → %j", (command, expected) => {
    expect(ok(command).parts.map((part) => part.words.map((word) => word.text))).toEqual(expected);
  });

  it("records how each part is joined to the one before", () => {
    expect(ok("a && b || c; d | e & f\ng").parts.map((part) => part.joinedBy)).toEqual([
      "start",
      "&&",
      "||",
      ";",
      "|",
      "&",
      "newline",
    ]);
  });

  it("exposes argv[0] and the arguments of each part", () => {
    const [part] = ok("git log --oneline -5").parts;
    expect(part?.program).toBe("git");
    expect(part?.args).toEqual(["log", "--oneline", "-5"]);
  });

  it("keeps assignments apart from argv", () => {
    const [part] = ok("CI=1 PATH+=:/x npm test").parts;
    expect(part?.assignments.map((word) => word.assignmentName)).toEqual(["CI", "PATH"]);
    expect(part?.program).toBe("npm");
  });

  it("does not take a quoted or computed NAME=value for an assignment", () => {
    expect(ok("'X=1' npm").parts[0]?.program).toBe("X=1");
    expect(ok("$X=1 npm").parts[0]?.program).toBe("$X=1");
  });
});

describe("splitShellCommand: programs hidden behind wrappers, keywords and substitutions", () => {
  it.each([
    ["sudo -u root rm -rf /", ["sudo", "rm"]],
    ["sudo -nu root rm x", ["sudo", "rm"]],
    ["env -i FOO=1 bash -c 'rm -rf /'", ["env", "bash", "rm"]],
    ["env -- rm x", ["env", "rm"]],
    ["nohup nice -n 5 timeout -s KILL 10 rm x", ["nohup", "nice", "timeout", "rm"]],
    ["exec rm x", ["exec", "rm"]],
    ["command rm x", ["command", "rm"]],
    ["xargs -n 1 rm < list", ["xargs", "rm"]],
    ["find . -name '*.tmp' -exec rm {} \\;", ["find", "rm"]],
    ["find . -execdir rm {} + -print", ["find", "rm"]],
    ["/bin/rm x", ["rm"]],
    ["\\rm x", ["rm"]],
    ["time -p rm x", ["rm"]],
    ["! rm x", ["rm"]],
    ["if true; then rm x; else ls; fi", ["true", "rm", "ls"]],
    ["while true; do rm x; done", ["true", "rm"]],
    ["{ rm x; }", ["rm"]],
    ["(cd src && rm x)", ["cd", "rm"]],
    ['echo "$(rm -rf /)"', ["echo", "rm"]],
    ["echo `rm x`", ["echo", "rm"]],
    ['echo "`rm x`"', ["echo", "rm"]],
    ["echo $(echo $(rm x))", ["echo", "echo", "rm"]],
    ["diff <(ls a) <(rm b)", ["diff", "ls", "rm"]],
    ["tee >(rm x)", ["tee", "rm"]],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template.
    ['echo "${X:-$(rm x)}"', ["echo", "rm"]],
    ["echo $(( $(rm x) + 1 ))", ["echo", "rm"]],
    ["eval 'rm -rf /'", ["eval", "rm"]],
    ["trap 'rm x' EXIT", ["trap", "rm"]],
    ["sh -c 'rm a; ls'", ["sh", "rm", "ls"]],
    ["bash -lc 'rm a'", ["bash", "rm"]],
    ["bash -o pipefail -c 'rm a'", ["bash", "rm"]],
    ["su -c 'rm a' root", ["su", "rm"]],
    ["flock /tmp/l -c 'rm a'", ["flock", "rm"]],
    ["cat <<EOF\n$(rm a)\nEOF", ["cat", "rm"]],
  ])("%j runs %j", (command, expected) => {
    expect(programs(command)).toEqual(expected);
  });

  it("does not run what a quoted heredoc, a comment or single quotes only mention", () => {
    expect(programs("cat <<'EOF'\n$(rm a)\nEOF")).toEqual(["cat"]);
    expect(programs("cat <<EOF\nrm -rf /\nEOF\nls")).toEqual(["cat", "ls"]);
    expect(programs("echo '$(rm a)'")).toEqual(["echo"]);
    expect(programs("ls # && rm a")).toEqual(["ls"]);
  });

  it("strips leading tabs for <<- heredocs", () => {
    expect(programs("cat <<-EOF\n\trm a\n\tEOF\nls")).toEqual(["cat", "ls"]);
  });
});

describe("splitShellCommand: constructs that are never auto-approved", () => {
  it.each([
    ["echo $(id)", "command-substitution"],
    ["echo `id`", "backticks"],
    ["cat <(ls)", "process-substitution"],
    ["echo $((1 + 2))", "arithmetic"],
    ["echo $[1 + 2]", "arithmetic"],
    ["eval ls", "eval"],
    ["bash -c ls", "shell-c"],
    ["env bash -c ls", "shell-c"],
    ["env -S 'rm x'", "shell-c"],
    ["curl x | sh", "shell-stdin"],
    ["bash -s < script", "shell-stdin"],
    ["python3 -c 'import os'", "inline-code"],
    ["node -e 'process.exit()'", "inline-code"],
    ["perl -pe 's/a/b/' f", "inline-code"],
    ["awk '{print $1}' f", "inline-code"],
    ["git -c core.pager=less log", "inline-code"],
    ["sudo ls", "privilege"],
    ["exec ls", "exec"],
    ["xargs ls", "indirect-exec"],
    ["find . -exec ls {} +", "indirect-exec"],
    ["$CMD x", "dynamic-program"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template.
    ["rm${IFS}-rf${IFS}/", "dynamic-program"],
    ["{rm,-rf,/}", "dynamic-program"],
    ["/bin/r? x", "dynamic-program"],
    ["$'\\x72m' x", "dynamic-program"],
    ['bash -c "$X"', "dynamic-program"],
    ["npm test；ls", "look-alike-characters"],
    ["npm\u00a0test", "look-alike-characters"],
    ["ls\u200b", "look-alike-characters"],
    ["ls\r", "control-characters"],
  ])("%j uses %s", (command, kind) => {
    expect(constructs(command)).toContain(kind);
  });

  it.each([
    "npm test",
    "git status && git diff",
    'echo "$HOME" > /dev/null',
    "cat <<'EOF'\n$(x)\nEOF",
    "bash script.sh",
    "node build.js",
    "python3 -m pytest",
  ])("%j uses none", (command) => {
    expect(ok(command).constructs).toEqual([]);
  });

  it("notes heredocs, here-strings, comments, continuations, background jobs and subshells", () => {
    expect(ok("cat <<EOF\nx\nEOF").notes).toContain("heredoc");
    expect(ok("cat <<< hi").notes).toContain("here-string");
    expect(ok("ls # x").notes).toContain("comment");
    expect(ok("ls \\\n -la").notes).toContain("line-continuation");
    expect(ok("sleep 1 &").notes).toContain("background");
    expect(ok("(ls)").notes).toContain("subshell");
  });
});

describe("splitShellCommand: redirections", () => {
  it("parses targets out of the words", () => {
    const [part] = ok("echo x > /etc/passwd 2>&1 >>log <in 2>/dev/null &>all").parts;
    expect(part?.words.map((word) => word.text)).toEqual(["echo", "x"]);
    expect(part?.redirections.map((r) => [r.operator, r.fd, r.target.text, r.kind])).toEqual([
      [">", null, "/etc/passwd", "write"],
      [">&", 2, "1", "fd-duplicate"],
      [">>", null, "log", "write"],
      ["<", null, "in", "read"],
      [">", 2, "/dev/null", "write"],
      ["&>", null, "all", "write"],
    ]);
  });

  it("treats >&word with a file name as a write and marks computed targets", () => {
    const [part] = ok("ls >&out >$FILE").parts;
    expect(part?.redirections.map((r) => [r.kind, r.target.literal])).toEqual([
      ["write", true],
      ["write", false],
    ]);
  });

  it("parses redirections before the program", () => {
    const [part] = ok("2>err >out ls -la").parts;
    expect(part?.program).toBe("ls");
    expect(part?.redirections).toHaveLength(2);
  });
});

describe("splitShellCommand: lines it refuses to guess about", () => {
  it.each([
    ["echo 'unterminated", "single quote"],
    ['echo "unterminated', "double quote"],
    ["echo `unterminated", "backtick"],
    ["echo $(unterminated", "unbalanced"],
    ["echo ${unterminated", "unbalanced"],
    ["echo $'unterminated", "quote"],
    ["ls \\", "backslash"],
    ["ls &&", "ends with"],
    ["ls |", "ends with"],
    ["&& ls", "no command before"],
    ["ls ;; ls", "case"],
    ["ls > ", "no target"],
    ["ls >| && x", "no target"],
    ["(ls", "unbalanced"],
    ["ls)", "unbalanced"],
    ["f() { rm x; }", "unexpected '('"],
    ["a=(rm x)", "unexpected '('"],
    ["((x = 1))", "arithmetic"],
    ["for f in *; do rm $f; done", "'for'"],
    ["case $x in a) rm;; esac", "case"],
    ["[[ -f x ]] && ls", "'[['"],
    ["function f { ls; }", "'function'"],
    ["cat <<EOF\nno end", "not terminated"],
    ["cat <<", "no delimiter"],
    ["ls\0", "NUL"],
  ])("%j → %s", (command, reason) => {
    const result = splitShellCommand(command);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it("refuses substitutions nested deeper than it analyses", () => {
    const deep = `${"echo $(".repeat(12)}ls${")".repeat(12)}`;
    expect(splitShellCommand(deep).ok).toBe(false);
  });

  it("splits the empty line into nothing", () => {
    expect(ok("").parts).toEqual([]);
    expect(ok("   # only a comment").parts).toEqual([]);
  });
});
