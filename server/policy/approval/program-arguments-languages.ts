import type { ShellWord } from "@/server/domain/shell/vocabulary";
import { summarise } from "@/server/domain/shell/vocabulary";

/** What a program's arguments make it do (`argumentEffects` in program-arguments.ts reads them). */
export interface ArgumentEffects {
  /** Files the arguments make the program write (checked like redirection targets). */
  writes: ShellWord[];
  /** Why the program is not read-only with these arguments: it runs something, writes, or cannot be read. */
  unsafe: string[];
}

/**
 * The programs whose arguments are not GNU options but a language of their own: find's expression,
 * sed's script, and `git branch`, whose listing forms are few and whose other forms change branches.
 * Each is read conservatively, like the rest of program-arguments.ts: what is not known to only read
 * is reported as unsafe.
 */

/** find's actions that run programs, delete, or write files; its tests only read. */
const FIND_WRITES = new Set(["-fprint", "-fprint0", "-fprintf", "-fls"]);
const FIND_UNSAFE: Readonly<Record<string, string>> = {
  "-exec": "runs a program",
  "-execdir": "runs a program",
  "-ok": "runs a program",
  "-okdir": "runs a program",
  "-delete": "deletes what it finds",
};

export function findEffects(args: readonly ShellWord[]): ArgumentEffects {
  const effects: ArgumentEffects = { writes: [], unsafe: [] };
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as ShellWord;
    if (!word.literal) {
      effects.unsafe.push(`find's argument ${summarise(word.text)} is computed at run time`);
      continue;
    }
    const why = FIND_UNSAFE[word.text];
    if (why) effects.unsafe.push(`find ${word.text} ${why}`);
    if (FIND_WRITES.has(word.text)) {
      const target = args[i + 1];
      if (target) effects.writes.push(target);
      else effects.unsafe.push(`find ${word.text} writes a file this analysis cannot name`);
    }
  }
  return effects;
}

/**
 * `git branch` lists only in a few forms; any operand outside `--list` creates, and options such as
 * `-d`, `-m`, `-u` or `--edit-description` (which opens an editor) change the repository. So this is
 * an allow-list of listing options, and anything else is not read-only.
 */
const BRANCH_LISTING = new Set([
  "-a",
  "-r",
  "-v",
  "-vv",
  "-av",
  "-rv",
  "-avv",
  "-l",
  "-i",
  "--all",
  "--remotes",
  "--verbose",
  "--list",
  "--show-current",
  "--ignore-case",
  "--no-color",
  "--color",
  "--column",
  "--no-column",
  "--no-abbrev",
  "--omit-empty",
]);
const BRANCH_LISTING_VALUED = new Set([
  "--contains",
  "--no-contains",
  "--merged",
  "--no-merged",
  "--points-at",
]);
const BRANCH_LISTING_PREFIXED = ["--sort=", "--format=", "--color=", "--column=", "--abbrev="];

export function gitBranch(args: readonly ShellWord[]): ArgumentEffects {
  const effects: ArgumentEffects = { writes: [], unsafe: [] };
  const listing = args.some((word) => word.literal && (word.text === "--list" || word.text === "-l"));
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as ShellWord;
    const text = word.text;
    if (!word.literal)
      effects.unsafe.push(`git branch's argument ${summarise(text)} is computed at run time`);
    else if (BRANCH_LISTING.has(text) || BRANCH_LISTING_PREFIXED.some((prefix) => text.startsWith(prefix)))
      continue;
    else if (BRANCH_LISTING_VALUED.has(text.split("=")[0] ?? "")) i += text.includes("=") ? 0 : 1;
    else if (text.startsWith("-")) effects.unsafe.push(`git branch ${summarise(text)} may change branches`);
    else if (!listing) effects.unsafe.push(`git branch ${summarise(text)} creates a branch`);
  }
  return effects;
}

/**
 * sed edits files in place (`-i`), reads its script from a file (`-f`), and its script language has
 * commands that write (`w`, `W`, `s///w`) or run (`e`, `s///e`). Only scripts made of addresses,
 * `s` commands with harmless flags, `y` and printing or flow commands are read-only; the rest asks.
 */
const SED_VALUED = new Set(["e", "f", "l", "--expression", "--file", "--line-length"]);
const SED_SAFE_SCRIPT = /^[\d,$\s!;{}pPdDnNqQ=lgGhHxz~+]*$/;

export function sedEffects(args: readonly ShellWord[]): ArgumentEffects {
  const effects: ArgumentEffects = { writes: [], unsafe: [] };
  const scripts: string[] = [];
  let sawScriptOption = false;
  let operands = 0;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as ShellWord;
    const text = word.text;
    if (!word.literal) {
      effects.unsafe.push(`sed's argument ${summarise(text)} is computed at run time`);
      continue;
    }
    if (text === "-i" || text.startsWith("--in-place") || /^-[^-]*i/.test(text.split(/[ef]/)[0] ?? ""))
      effects.unsafe.push("sed -i edits files in place");
    if (text === "-f" || text.startsWith("--file") || /^-[a-zA-Z]*f/.test(text))
      effects.unsafe.push("sed -f reads its script from a file");
    const short = /^-[a-zA-Z]*e(.*)$/.exec(text);
    if (text.startsWith("--expression=")) {
      scripts.push(text.slice("--expression=".length));
      sawScriptOption = true;
    } else if (short && !text.startsWith("--")) {
      sawScriptOption = true;
      if (short[1]) scripts.push(short[1]);
      else {
        scripts.push(args[i + 1]?.text ?? "");
        i += 1;
      }
    } else if (text === "--expression") {
      sawScriptOption = true;
      scripts.push(args[i + 1]?.text ?? "");
      i += 1;
    } else if (SED_VALUED.has(text)) i += 1;
    else if (!text.startsWith("-") || text === "-") {
      if (!sawScriptOption && operands === 0) scripts.push(text);
      operands += 1;
    }
  }
  for (const script of scripts)
    if (!SED_SAFE_SCRIPT.test(stripSedText(script)))
      effects.unsafe.push(`sed script ${summarise(script)} may write files or run commands`);
  return effects;
}

/** Removes what is text rather than commands: `/regex/` addresses, `s` with harmless flags, `y`. */
function stripSedText(script: string): string {
  return script
    .replace(/s([^\\\n])((?:\\.|(?!\1)[^\\])*)\1((?:\\.|(?!\1)[^\\])*)\1[gpiImM0-9]*/g, "")
    .replace(/y([^\\\n])((?:\\.|(?!\1)[^\\])*)\1((?:\\.|(?!\1)[^\\])*)\1/g, "")
    .replace(/\/((?:\\.|[^/\\])*)\/I?/g, "");
}
