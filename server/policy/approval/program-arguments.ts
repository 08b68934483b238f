import type { ShellWord } from "@/server/domain/shell/vocabulary";
import { summarise } from "@/server/domain/shell/vocabulary";
import { type ArgumentEffects, findEffects, gitBranch, sedEffects } from "./program-arguments-languages";

/**
 * What the arguments of a read-only program make it do. An allow-list names programs; this names the
 * options and operands that turn one of them into a writer or a launcher: `sort -o FILE`, uniq's
 * second operand, `git log --output=FILE`, `git diff --ext-diff`, `tree -o FILE`, `find -delete`,
 * `git branch NEW`. The gate approves a program as read-only only when its arguments, read this way,
 * neither write nor run anything; the files they write are checked like redirections.
 *
 * The reading is conservative in both directions it can be wrong in: a long option counts as any
 * option it abbreviates (GNU getopt and git accept unambiguous prefixes: `--out=F` is `--output=F`),
 * a word is taken as an option value only when the option surely takes one (otherwise it is read as
 * an option or operand in its own right, which can only add findings), and a word the shell computes
 * at run time (`$X`, a glob that may match a file named `-ofoo`) is unknown, never harmless.
 */

interface OptionSpec {
  /** Short letters (`"o"`) and long names (`"--output"`) that take a value. */
  valued: readonly string[];
  /** Options whose value is a file the program writes. */
  writeTo: readonly string[];
  /** Options that make the program run something or write where no value names; each maps to why. */
  unsafe: Readonly<Record<string, string>>;
  /** The operand (0-based) from which operands are files written (uniq's OUTPUT is its second). */
  writtenOperandsFrom?: number;
}

type Describe = (args: readonly ShellWord[], name: string) => ArgumentEffects;

const READS_ONLY: OptionSpec = { valued: [], writeTo: [], unsafe: {} };

/**
 * Every program on the default read-only list (server/policy/checkpoints.ts) has an entry, so a new
 * entry there without one here fails its test; the others are programs a project may allow-list.
 */
const OPTION_SPECS = new Map<string, OptionSpec>([
  ["ls", READS_ONLY],
  ["cat", READS_ONLY],
  ["pwd", READS_ONLY],
  ["echo", READS_ONLY],
  // bash's builtin `printf -v NAME` only sets a shell variable.
  ["printf", READS_ONLY],
  ["id", READS_ONLY],
  ["whoami", READS_ONLY],
  ["uname", READS_ONLY],
  ["head", READS_ONLY],
  ["tail", READS_ONLY],
  ["grep", READS_ONLY],
  ["true", READS_ONLY],
  ["false", READS_ONLY],
  ["test", READS_ONLY],
  ["stat", READS_ONLY],
  ["du", READS_ONLY],
  ["df", READS_ONLY],
  ["cut", READS_ONLY],
  ["basename", READS_ONLY],
  ["dirname", READS_ONLY],
  ["which", READS_ONLY],
  ["sleep", READS_ONLY],
  ["exit", READS_ONLY],
  ["cd", READS_ONLY],
  ["wc", READS_ONLY],
  [
    "date",
    {
      valued: ["d", "f", "r", "s", "--date", "--file", "--reference", "--set"],
      writeTo: [],
      unsafe: { s: "sets the system clock", "--set": "sets the system clock" },
    },
  ],
  [
    "file",
    {
      valued: ["e", "F", "f", "m", "P", "--exclude", "--separator", "--files-from", "--magic-file"],
      writeTo: [],
      unsafe: { C: "compiles a magic file into the directory", "--compile": "compiles a magic file" },
    },
  ],
  [
    "tree",
    {
      valued: ["L", "P", "I", "H", "T", "o", "--filelimit", "--timefmt", "--sort", "--charset", "--fromfile"],
      writeTo: ["o"],
      unsafe: { R: "writes an 00Tree.html file into every directory" },
    },
  ],
  [
    "sort",
    {
      valued: [
        "k",
        "o",
        "S",
        "t",
        "T",
        "--key",
        "--output",
        "--buffer-size",
        "--field-separator",
        "--temporary-directory",
        "--compress-program",
        "--files0-from",
        "--random-source",
        "--batch-size",
        "--parallel",
        "--sort",
      ],
      writeTo: ["o", "--output"],
      unsafe: {
        "--compress-program": "runs the program it names",
        T: "writes temporary files into the directory it names",
        "--temporary-directory": "writes temporary files into the directory it names",
      },
    },
  ],
  [
    "uniq",
    {
      valued: ["f", "s", "w", "--skip-fields", "--skip-chars", "--check-chars", "--group", "--all-repeated"],
      writeTo: [],
      unsafe: {},
      writtenOperandsFrom: 1,
    },
  ],
]);

/** Options of `git diff`, `git log` and `git show` that write a file or run a configured program. */
const GIT_DIFF_OPTIONS: OptionSpec = {
  valued: ["--output"],
  writeTo: ["--output"],
  unsafe: {
    "--ext-diff": "runs the external diff program the configuration names",
    "--textconv": "runs the text conversion programs the configuration names",
    "--open-files-in-pager": "runs a pager",
  },
};

/** `git <subcommand>` → how its arguments are read; a subcommand not here is not described. */
const GIT_SUBCOMMANDS = new Map<string, Describe>([
  ["status", (args) => byOptions(args, "git status", READS_ONLY)],
  ["log", (args) => byOptions(args, "git log", GIT_DIFF_OPTIONS)],
  ["diff", (args) => byOptions(args, "git diff", GIT_DIFF_OPTIONS)],
  ["show", (args) => byOptions(args, "git show", GIT_DIFF_OPTIONS)],
  ["branch", gitBranch],
]);

/** git's own options before the subcommand that take the next word (`git -C dir log`). */
const GIT_GLOBAL_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix"]);

/** The programs and git subcommands this module describes, for tests that cover each of them. */
export const DESCRIBED_PROGRAMS: readonly string[] = [
  ...OPTION_SPECS.keys(),
  "find",
  "sed",
  ...[...GIT_SUBCOMMANDS.keys()].map((sub) => `git ${sub}`),
];

/**
 * The effects of running `argv` (program first), or null when the program is not one this module
 * describes (a project's own allow rule such as `npm test` is the project's judgement).
 */
export function argumentEffects(argv: readonly ShellWord[]): ArgumentEffects | null {
  const [program, ...args] = argv;
  if (!program?.literal) return null;
  if (program.text === "git") return gitEffects(args);
  if (program.text === "find") return findEffects(args);
  if (program.text === "sed") return sedEffects(args);
  const spec = OPTION_SPECS.get(program.text);
  return spec ? byOptions(args, program.text, spec) : null;
}

function gitEffects(args: readonly ShellWord[]): ArgumentEffects | null {
  let i = 0;
  while (i < args.length) {
    const word = args[i];
    if (!word?.literal) return { writes: [], unsafe: ["git's arguments are computed at run time"] };
    if (!word.text.startsWith("-")) break;
    i += GIT_GLOBAL_VALUED.has(word.text) ? 2 : 1;
  }
  const subcommand = args[i]?.text;
  const readSubcommand = subcommand === undefined ? undefined : GIT_SUBCOMMANDS.get(subcommand);
  return readSubcommand ? readSubcommand(args.slice(i + 1), `git ${subcommand}`) : null;
}

/** Starts with a character no expansion changes and holds no `$` or backtick: a glob or brace word. */
const GLOB_WITH_PREFIX = /^[A-Za-z0-9._/+,:@%^=][^$`]*$/;

/** GNU-style options: `-abc`, `-ofile`, `-o file`, `--name=value`, `--name value`, `--`. */
function byOptions(args: readonly ShellWord[], name: string, spec: OptionSpec): ArgumentEffects {
  const effects: ArgumentEffects = { writes: [], unsafe: [] };
  const capable =
    spec.writeTo.length > 0 || Object.keys(spec.unsafe).length > 0 || spec.writtenOperandsFrom !== undefined;
  let operands = 0;
  let optionsEnded = false;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as ShellWord;
    if (!word.literal) {
      // A computed word can become any option (`$OPT`, a glob matching a file called `-o…`), and an
      // unquoted expansion several words. A glob or brace word with a plain prefix (`src/*.ts`), or
      // any word after `--`, stays one or more operands: harmless unless operands are written.
      const onlyOperands = optionsEnded || GLOB_WITH_PREFIX.test(word.text);
      if (capable && !(onlyOperands && spec.writtenOperandsFrom === undefined))
        effects.unsafe.push(`${name}'s argument ${summarise(word.text)} is computed at run time`);
      operands += 1;
      continue;
    }
    const text = word.text;
    if (optionsEnded || text === "-" || !text.startsWith("-")) {
      if (spec.writtenOperandsFrom !== undefined && operands >= spec.writtenOperandsFrom)
        effects.writes.push(word);
      operands += 1;
      continue;
    }
    if (text === "--") {
      optionsEnded = true;
      continue;
    }
    if (text.startsWith("--")) i += longOption(text, args[i + 1], name, spec, effects);
    else i += shortCluster(text, args[i + 1], name, spec, effects);
  }
  return effects;
}

/** Reads one `--name[=value]`; returns 1 when it consumed the next word as its value. */
function longOption(
  text: string,
  next: ShellWord | undefined,
  name: string,
  spec: OptionSpec,
  effects: ArgumentEffects,
): number {
  const eq = text.indexOf("=");
  const given = eq < 0 ? text : text.slice(0, eq);
  // `--out` is `--output` to getopt_long and to git: any option it may abbreviate counts.
  const abbreviates = (option: string) => option.startsWith("--") && option.startsWith(given);
  for (const [option, why] of Object.entries(spec.unsafe))
    if (abbreviates(option)) effects.unsafe.push(`${name} ${option} ${why}`);
  const exact = (options: readonly string[]) => options.includes(given);
  const takesNext = eq < 0 && exact(spec.valued);
  const value: ShellWord | undefined =
    eq >= 0 ? { text: text.slice(eq + 1), literal: true, quoted: false, assignmentName: null } : next;
  if (spec.writeTo.some(abbreviates)) {
    if (value && (eq >= 0 || takesNext)) effects.writes.push(value);
    else effects.unsafe.push(`${name} ${given} writes a file this analysis cannot name`);
  }
  return takesNext ? 1 : 0;
}

/** Reads one `-abc` cluster; returns 1 when its last letter took the next word as its value. */
function shortCluster(
  text: string,
  next: ShellWord | undefined,
  name: string,
  spec: OptionSpec,
  effects: ArgumentEffects,
): number {
  for (let k = 1; k < text.length; k += 1) {
    const letter = text.charAt(k);
    const why = spec.unsafe[letter];
    if (why) effects.unsafe.push(`${name} -${letter} ${why}`);
    if (!spec.valued.includes(letter)) continue;
    const attached = text.slice(k + 1);
    const value: ShellWord | undefined =
      attached === "" ? next : { text: attached, literal: true, quoted: false, assignmentName: null };
    if (spec.writeTo.includes(letter)) {
      if (value) effects.writes.push(value);
      else effects.unsafe.push(`${name} -${letter} writes a file this analysis cannot name`);
    }
    return attached === "" && next ? 1 : 0;
  }
  return 0;
}
