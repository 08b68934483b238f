import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApprovalPolicyInput } from "@/server/domain/policy/approval-policy";
import { decideApproval } from "./decide";

/**
 * The promise the gate makes about shell commands, tested over generated command lines rather than
 * examples: a line that runs a denied program, or that hides what it runs in a substitution, is never
 * approved, however it is chained, quoted, escaped, wrapped or disguised. The policy is as permissive
 * as it can be otherwise: every category pre-approved and every other program (wrappers and shells
 * included) on the allow-list, so nothing but the gate's own analysis stands between the line and
 * `approve`.
 */

const INTENT = { id: "INT-001", ownedScope: ["**"] };
const BENIGN_PROGRAMS = ["npm", "git", "ls", "echo", "cat", "grep", "true", "printf", "make", "node"];
const WRAPPERS_AND_SHELLS = ["sudo", "env", "nohup", "nice", "timeout", "xargs", "find", "command", "exec"];
const PERMISSIVE: ApprovalPolicyInput = {
  allowCommands: [...BENIGN_PROGRAMS, ...WRAPPERS_AND_SHELLS, "bash", "sh", "eval", "time"].map(
    (program) => ({
      program,
    }),
  ),
  denyCommands: [{ program: "rm" }, { program: "git", args: ["push"] }],
};
const EVERYTHING = { run: ["read", "write", "git-read", "git-write", "shell", "intent"], project: [] };

function decide(command: string) {
  return decideApproval({
    tool: "shell.exec",
    input: { command },
    risk: "dangerous",
    activeIntent: INTENT,
    policy: PERMISSIVE,
    preApprovals: EVERYTHING,
  });
}

/** Ways to run `rm` (or `git push`) that bash really executes. */
const DENIED_CORES = [
  "rm -rf /",
  "rm x",
  "/bin/rm x",
  "/usr/bin/rm -f x",
  "\\rm x",
  "r''m x",
  "'rm' x",
  '"rm" x',
  "r\\m x",
  "r\\\nm x",
  "rm \\\n -rf /",
  "command rm x",
  "sudo rm x",
  "sudo -u root rm x",
  "env X=1 rm x",
  "env -i rm x",
  "nohup rm x",
  "nice -n 1 rm x",
  "timeout 5 rm x",
  "exec rm x",
  "xargs rm",
  "xargs -n 1 rm -f",
  "find . -exec rm {} +",
  "find . -execdir rm {} \\;",
  "time rm x",
  "! rm x",
  "{ rm x; }",
  "(rm x)",
  "if true; then rm x; fi",
  "while false; do rm x; done",
  "bash -c 'rm x'",
  'sh -c "rm x"',
  "bash -lc 'ls && rm x'",
  "env bash -c 'rm x'",
  "eval rm x",
  "eval 'rm x'",
  "trap 'rm x' EXIT",
  "echo $(rm x)",
  "echo `rm x`",
  "cat <(rm x)",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template.
  "rm${IFS}x",
  "{rm,x}",
  "$'\\x72m' x",
  "r$@m x",
  "$(echo rm) x",
  "git push",
  "git -C . push origin",
  "git pu''sh",
  "cat <<EOF\n$(rm x)\nEOF",
] as const;

const BENIGN_PARTS = [
  "npm test",
  "git status",
  "ls -la",
  "echo hi",
  "cat README.md",
  "grep -r x src",
  "true",
];
const SEPARATORS = [" && ", " || ", "; ", " | ", " & ", "\n", " && \\\n  ", ";\n", "\n\n", "|", "&&"];
/** Disguises: what bash treats differently from what a reader (or a naive parser) sees. */
const LOOK_ALIKE_SEPARATORS = ["；", "\u00a0&&\u00a0", " ｜ ", "\u2028", " &\u200b& "];

type Wrap = (core: string) => string;
const WRAPS: ReadonlyArray<Wrap> = [
  (core) => core,
  (core) => `echo "$(${core})"`,
  (core) => `echo "prefix $(${core}) suffix"`,
  (core) => `ls "$(echo "$(${core})")"`,
  (core) => `cat <(${core})`,
  (core) => `CI=1 ${core}`,
  (core) => `${core} > /dev/null 2>&1`,
  (core) => `${core} # trailing comment`,
  (core) => `# leading comment\n${core}`,
  (core) => `(${core})`,
  (core) => `{ ${core}; }`,
  (core) => `bash -c ${singleQuote(core)}`,
  (core) => `sh -c ${singleQuote(core)}`,
];

function singleQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const chain = (parts: readonly string[], separators: readonly string[]) =>
  parts.reduce(
    (line, part, i) => (i === 0 ? part : `${line}${separators[(i - 1) % separators.length]}${part}`),
    "",
  );

const deniedLine = fc
  .record({
    core: fc.constantFrom(...DENIED_CORES),
    wrap: fc.constantFrom(...WRAPS),
    before: fc.array(fc.constantFrom(...BENIGN_PARTS), { maxLength: 3 }),
    after: fc.array(fc.constantFrom(...BENIGN_PARTS), { maxLength: 3 }),
    separators: fc.array(fc.constantFrom(...SEPARATORS, ...LOOK_ALIKE_SEPARATORS), {
      minLength: 1,
      maxLength: 6,
    }),
  })
  .map(({ core, wrap, before, after, separators }) => chain([...before, wrap(core), ...after], separators));

describe("no generated line that runs a denied program is approved", () => {
  it("holds for a deterministic sweep of every core × every wrapping (≥ 200 lines)", () => {
    const lines = DENIED_CORES.flatMap((core) =>
      WRAPS.map((wrap, i) =>
        chain(["npm test", wrap(core), "git status"], [SEPARATORS[i % SEPARATORS.length] ?? ";"]),
      ),
    );
    expect(lines.length).toBeGreaterThanOrEqual(200);
    const approved = lines.filter((line) => decide(line).decision === "approve");
    expect(approved).toEqual([]);
  });

  it("holds for random chains, separators, disguises and wrappings", () => {
    fc.assert(
      fc.property(deniedLine, (line) => decide(line).decision !== "approve"),
      { numRuns: 1_000, seed: 20_240_501 },
    );
  });

  it("denies outright when the denied program is plainly visible", () => {
    const visible = DENIED_CORES.filter((core) => !/\$|\{rm|`/.test(core));
    for (const core of visible) {
      expect({ core, decision: decide(`npm test && ${core}`).decision }).toEqual({ core, decision: "deny" });
    }
  });
});

describe("no generated line with a hidden command is approved, even if it runs only allowed programs", () => {
  const hidden = fc
    .record({
      inner: fc.constantFrom(...BENIGN_PARTS),
      form: fc.constantFrom<Wrap>(
        (c) => `echo "$(${c})"`,
        (c) => `echo \`${c}\``,
        (c) => `cat <(${c})`,
        (c) => `tee >(${c})`,
        (c) => `echo "\${X:-$(${c})}"`,
        (c) => `eval ${singleQuote(c)}`,
        (c) => `bash -c ${singleQuote(c)}`,
        (c) => `env FOO=1 sh -c ${singleQuote(c)}`,
        (c) => `sudo ${c}`,
        (c) => `echo ${c} | bash`,
        (c) => `echo $((1 + 1)) ${c}`,
        (c) => `$CMD ${c}`,
        (c) => `cat <<EOF\n$(${c})\nEOF`,
      ),
      before: fc.array(fc.constantFrom(...BENIGN_PARTS), { maxLength: 2 }),
      separator: fc.constantFrom(...SEPARATORS),
    })
    .map(({ inner, form, before, separator }) => chain([...before, form(inner)], [separator]));

  it("asks for every one", () => {
    fc.assert(
      fc.property(hidden, (line) => decide(line).decision === "ask"),
      { numRuns: 500, seed: 42 },
    );
  });
});

describe("lines the gate cannot read are never approved", () => {
  // Each breakage is a syntax error in the position it is put in (`> x` at the start is valid bash).
  const atEnd = ["'", '"', "`", "$(", "${", "\\", "&&", "|", "(", ")", "<<EOF", ">", ";;"];
  const atStart = ["'", '"', "`", "$(", "${", "&&", "|", "(", ")", "<<EOF", ";;"];
  const broken = fc.oneof(
    fc.tuple(fc.constantFrom(...BENIGN_PARTS), fc.constantFrom(...atEnd)).map(([part, b]) => `${part} ${b}`),
    fc
      .tuple(fc.constantFrom(...atStart), fc.constantFrom(...BENIGN_PARTS))
      .map(([b, part]) => `${b} ${part}`),
  );

  it("asks (or denies), whatever is pre-approved", () => {
    fc.assert(
      fc.property(broken, (line) => decide(line).decision !== "approve"),
      { numRuns: 300, seed: 7 },
    );
  });
});
