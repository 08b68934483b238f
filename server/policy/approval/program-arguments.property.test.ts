import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CheckpointPolicy, READ_ONLY_COMMANDS } from "@/server/domain/policy/checkpoints";
import { gateCommand } from "./command-gate";
import { DESCRIBED_PROGRAMS } from "./program-arguments";

/**
 * The gate's promise about the read-only list, over generated invocations instead of examples: an
 * allow-listed program given an option or operand that writes a file or runs a program is never
 * approved unasked, however the option is spelt (`-o F`, `-oF`, a cluster `-rno F`, `--output=F`,
 * `--output F`, an abbreviation `--out=F`), quoted or escaped, mixed with harmless options, chained,
 * or hidden behind a word the shell computes. Two policies: the default ("ask unless read-only") and
 * one that allow-lists every described program by name, so only the argument reading stands between
 * the line and `approve`. The same generator without the writing argument must be approved: the
 * property is not satisfied by a gate that asks for everything.
 */

const DEFAULT = CheckpointPolicy.parse({});
const ALLOW_BY_NAME = CheckpointPolicy.parse({
  allowCommands: [...new Set(DESCRIBED_PROGRAMS.map((program) => program.split(" ")[0] ?? program))].map(
    (program) => ({ program }),
  ),
});

type Quote = (word: string) => string;
const QUOTES: ReadonlyArray<Quote> = [
  (word) => word,
  (word) => `'${word}'`,
  (word) => `"${word}"`,
  (word) => `\\${word}`,
  (word) => `${word.slice(0, 1)}''${word.slice(1)}`,
];

const TARGETS = ["out.txt", ".git/config", "/home/arbor/.bashrc", "package.json", "src/x.ts", "../up"];
const target = fc.constantFrom(...TARGETS);

interface Case {
  /** The program and subcommand, as in DESCRIBED_PROGRAMS. */
  program: string;
  /** Arguments that only read: any number of them mix in. */
  harmless: readonly string[][];
  /** Argument sequences that write or run something; `@` is replaced by a generated path. */
  writing: readonly string[][];
}

const GIT_DIFF_WRITING = [
  ["--output=@"],
  ["--output", "@"],
  ["--outp=@"],
  ["--out", "@"],
  ["--ext-diff"],
  ["--ext"],
  ["--textconv"],
];

const CASES: readonly Case[] = [
  {
    program: "sort",
    harmless: [["-r"], ["-n"], ["-k", "2"], ["-t,"], ["-u"], ["data.txt"], ["--reverse"], ["-k2,2n"]],
    writing: [
      ["-o", "@"],
      ["-o@"],
      ["-ro", "@"],
      ["-rno@"],
      ["-nuo", "@"],
      ["--output=@"],
      ["--output", "@"],
      ["--out=@"],
      ["--outp", "@"],
      ["--compress-program=sh"],
      ["--compress-prog", "sh"],
      ["-T", "@"],
      ["-rT@"],
      ["--temporary-directory=@"],
    ],
  },
  {
    program: "uniq",
    harmless: [["-c"], ["-d"], ["-i"], ["-f", "1"], ["--skip-chars=2"], ["-w3"]],
    writing: [
      ["in.txt", "@"],
      ["-", "@"],
      ["--", "in.txt", "@"],
      ["in.txt", "-c", "@"],
    ],
  },
  {
    program: "tree",
    harmless: [["-a"], ["-L", "2"], ["-d"], ["src"], ["-I", "node_modules"]],
    writing: [["-o", "@"], ["-o@"], ["-ao", "@"], ["-R"], ["-aR"]],
  },
  {
    program: "file",
    harmless: [["-b"], ["-i"], ["README.md"], ["-L"]],
    writing: [["-C"], ["-bC"], ["--compile"], ["--comp"]],
  },
  {
    program: "date",
    harmless: [["-u"], ["+%s"], ["-d", "yesterday"], ["--iso-8601"]],
    writing: [["-s", "2020-01-01"], ["-us", "now"], ["--set=now"], ["--se", "now"]],
  },
  {
    program: "find",
    harmless: [["."], ["-name", "x"], ["-type", "f"], ["-print"]],
    writing: [["-delete"], ["-fprint", "@"], ["-fprintf", "@", "%p"], ["-fls", "@"], ["-exec", "ls", ";"]],
  },
  {
    program: "sed",
    harmless: [["-n"], ["-E"], ["-e", "s/a/b/g"], ["-e", "1,5p"], ["--expression=/x/d"], ["-e", "y/ab/cd/"]],
    writing: [
      ["-i"],
      ["-ni"],
      ["--in-place=.bak"],
      ["-e", "w @"],
      ["-e", "s/a/b/w @"],
      ["-e", "1e touch x"],
      ["-e", "s/a/b/e"],
      ["--expression=W @"],
      ["-f", "script.sed"],
      ["-e", "/x/w @"],
      ["-n", "-e", "$!N;w @"],
    ],
  },
  {
    program: "git log",
    harmless: [["--oneline"], ["-3"], ["--stat"], ["-p"], ["--format=%H"], ["HEAD"], ["--", "src"]],
    writing: GIT_DIFF_WRITING,
  },
  {
    program: "git diff",
    harmless: [["--stat"], ["--cached"], ["HEAD~1"], ["--name-only"], ["-U3"], ["--no-ext-diff"]],
    writing: GIT_DIFF_WRITING,
  },
  {
    program: "git show",
    harmless: [["--stat"], ["HEAD"], ["--format=%s"], ["-s"]],
    writing: GIT_DIFF_WRITING,
  },
  {
    program: "git branch",
    harmless: [["-a"], ["-v"], ["--show-current"], ["--no-color"], ["--sort=-committerdate"]],
    writing: [
      ["feature"],
      ["-d", "old"],
      ["-D", "old"],
      ["-m", "a", "b"],
      ["-M", "b"],
      ["-c", "a", "b"],
      ["-f", "main", "HEAD~1"],
      ["--edit-description"],
      ["-u", "origin/main"],
      ["--set-upstream-to=origin/main"],
      ["--unset-upstream"],
      ["--delete", "x"],
      ["-dr", "origin/x"],
    ],
  },
];

const JOINERS = ["", "ls && ", "echo hi; ", "git status && "];

/** Harmless groups around the writing one; a `--` group goes last, since after it nothing is an option. */
function invocation(c: Case, mixed: readonly string[][], writing: readonly string[] | null, path: string) {
  const options = mixed.filter((group) => group[0] !== "--");
  const operands = mixed.filter((group) => group[0] === "--").slice(0, 1);
  const written = writing ? [writing.map((w) => w.replaceAll("@", path))] : [];
  return [
    ...c.program.split(" "),
    ...[...options.slice(0, 1), ...written, ...options.slice(1), ...operands].flat(),
  ];
}

const arbitraryCase = fc.constantFrom(...CASES).chain((c) =>
  fc.record({
    c: fc.constant(c),
    mixed: fc.array(fc.constantFrom(...c.harmless), { maxLength: 4 }),
    writing: fc.constantFrom(...c.writing),
    path: target,
    quotes: fc.array(fc.constantFrom(...QUOTES), { minLength: 8, maxLength: 8 }),
    joiner: fc.constantFrom(...JOINERS),
  }),
);

function quoteAll(words: readonly string[], quotes: readonly Quote[]): string {
  // The program itself stays bare: a quoted program name is a different question (tested elsewhere).
  return words
    .map((word, i) => (i < 2 && /^[a-z]+$/.test(word) ? word : (quotes[i % quotes.length] as Quote)(word)))
    .join(" ");
}

describe("read-only programs with arguments that write or run (property)", () => {
  it("describes every program and git subcommand on the default read-only list", () => {
    const listed = READ_ONLY_COMMANDS.map((pattern) => [pattern.program, ...pattern.args].join(" "));
    expect(listed.filter((program) => !DESCRIBED_PROGRAMS.includes(program))).toEqual([]);
  });

  it("never approves an invocation with a writing option or operand", () => {
    fc.assert(
      fc.property(arbitraryCase, ({ c, mixed, writing, path, quotes, joiner }) => {
        const command = `${joiner}${quoteAll(invocation(c, mixed, writing, path), quotes)}`;
        for (const policy of [DEFAULT, ALLOW_BY_NAME]) {
          const decision = gateCommand(command, "INT-001", policy);
          if (decision.decision === "approve") throw new Error(`approved unasked: ${command}`);
        }
      }),
      { numRuns: 2000 },
    );
  }, 120_000);

  it("never approves an invocation whose arguments are computed at run time", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template.
    const computed = fc.constantFrom("$OPT", '"$OPT"', "*", "-$X", "${A:-x}", "$(echo -o)", "~/x");
    fc.assert(
      fc.property(arbitraryCase, computed, ({ c, mixed }, word) => {
        // Before any `--`: after it, a computed word can only be an operand.
        const command = invocation(c, mixed, [word], "").join(" ");
        expect(gateCommand(command, "INT-001", ALLOW_BY_NAME).decision).not.toBe("approve");
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it("approves the same invocations without the writing argument (the property is not vacuous)", () => {
    fc.assert(
      fc.property(arbitraryCase, ({ c, mixed, quotes }) => {
        const command = quoteAll(invocation(c, mixed, null, ""), quotes);
        expect(gateCommand(command, "INT-001", ALLOW_BY_NAME).decision).toBe("approve");
      }),
      { numRuns: 500 },
    );
  }, 60_000);
});
