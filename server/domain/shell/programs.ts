import type { Construct, ConstructKind, NestedCommand, ShellWord } from "./vocabulary";
import { summarise } from "./vocabulary";

/**
 * What a command's argv really runs. `sudo env X=1 rm -rf /` runs `rm`; `find . -exec rm {} +` runs
 * `rm`; `bash -c "…"` runs a whole other command line. Deny rules must see those inner programs, and
 * the constructs that hide a program (eval, `-c` strings, inline interpreter code) are reported so the
 * gate never auto-approves them.
 */

export interface ExecutedProgram {
  /** As written, possibly with a path (`/bin/rm`). */
  program: string;
  /** The last path segment, which deny patterns are compared with, so `/bin/rm` is `rm`. */
  name: string;
  literal: boolean;
  args: ShellWord[];
  /** The wrappers it runs under, outermost first (`sudo`, `env`, `xargs`, `find`). */
  via: string[];
}

export interface ProgramAnalysis {
  executes: ExecutedProgram[];
  constructs: Construct[];
  nested: NestedCommand[];
}

interface WrapperSpec {
  /** Options that take the next word as their value (`sudo -u root`). */
  valued: readonly string[];
  /** Operands between the options and the wrapped command (timeout's duration, chroot's root). */
  operands?: number;
  /** `env` and `sudo` accept `NAME=value` words before the command. */
  assignments?: boolean;
  /** Options whose value is a command string run by a shell (`env -S`, `flock -c`, `su -c`). */
  shellString?: readonly string[];
  construct?: ConstructKind;
}

// A Map, not an object literal: a program called `constructor` must not find Object.prototype.
const WRAPPERS = new Map<string, WrapperSpec>([
  [
    "env",
    { valued: ["-u", "--unset", "-C", "--chdir"], assignments: true, shellString: ["-S", "--split-string"] },
  ],
  [
    "sudo",
    {
      valued: [
        "-u",
        "-g",
        "-h",
        "-p",
        "-C",
        "-D",
        "-r",
        "-t",
        "-T",
        "-U",
        "-R",
        "--user",
        "--group",
        "--chdir",
      ],
      assignments: true,
      construct: "privilege",
    },
  ],
  ["doas", { valued: ["-u", "-C"], construct: "privilege" }],
  [
    "su",
    { valued: ["-s", "--shell", "-g", "--group"], shellString: ["-c", "--command"], construct: "privilege" },
  ],
  ["chroot", { valued: ["--userspec", "--groups"], operands: 1, construct: "privilege" }],
  ["exec", { valued: ["-a"], construct: "exec" }],
  [
    "xargs",
    {
      valued: ["-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "-P", "-s"],
      construct: "indirect-exec",
    },
  ],
  ["nohup", { valued: [] }],
  ["nice", { valued: ["-n", "--adjustment"] }],
  ["timeout", { valued: ["-s", "--signal", "-k", "--kill-after"], operands: 1 }],
  ["stdbuf", { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] }],
  ["ionice", { valued: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"] }],
  [
    "flock",
    {
      valued: ["-w", "--timeout", "-E", "--conflict-exit-code"],
      operands: 1,
      shellString: ["-c", "--command"],
    },
  ],
  ["time", { valued: ["-f", "--format", "-o", "--output"] }],
  ["command", { valued: [] }],
  ["builtin", { valued: [] }],
  ["setsid", { valued: [] }],
  ["busybox", { valued: [] }],
]);

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "csh", "tcsh"]);

/** Interpreters and the flags that make them run code given on the command line. */
const INLINE_CODE_FLAGS: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/^python[0-9.]*$/, ["-c"]],
  [/^(node|nodejs|bun)$/, ["-e", "--eval", "-p", "--print"]],
  [/^perl[0-9.]*$/, ["-e", "-E"]],
  [/^ruby[0-9.]*$/, ["-e"]],
  [/^php[0-9.]*$/, ["-r"]],
  [/^lua[0-9.]*$/, ["-e"]],
];
const AWK = /^[gnm]?awk$/;
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

export function basename(program: string): string {
  return program.slice(program.lastIndexOf("/") + 1);
}

export function analyseArgv(argv: readonly ShellWord[], via: readonly string[] = []): ProgramAnalysis {
  const result: ProgramAnalysis = { executes: [], constructs: [], nested: [] };
  let rest = argv;
  let chain = [...via];
  for (;;) {
    const [head, ...args] = rest;
    if (!head) return result;
    const name = basename(head.text);
    result.executes.push({ program: head.text, name, literal: head.literal, args, via: chain });
    if (!head.literal) {
      construct(
        result,
        "dynamic-program",
        `the program name ${summarise(head.text)} is computed at run time`,
      );
      return result;
    }
    const wrapper = WRAPPERS.get(name);
    if (!wrapper) {
      inspectProgram(name, args, chain, result);
      return result;
    }
    if (wrapper.construct) construct(result, wrapper.construct, `${name} runs another program`);
    rest = unwrap(name, wrapper, args, result);
    chain = [...chain, name];
  }
}

/** Skips a wrapper's options and operands; what remains is the wrapped command's argv. */
function unwrap(name: string, spec: WrapperSpec, args: ShellWord[], result: ProgramAnalysis): ShellWord[] {
  let i = 0;
  // Options may follow operands (`flock FILE -c CMD`, `timeout 5 -s KILL CMD`): GNU tools permute.
  let operands = spec.operands ?? 0;
  while (i < args.length) {
    const text = args[i]?.text ?? "";
    if (text === "--") {
      i += 1;
      break;
    }
    const shellString = spec.shellString?.find((option) => text === option || text.startsWith(`${option}=`));
    if (shellString) {
      const value = text.includes("=") ? text.slice(text.indexOf("=") + 1) : args[i + 1]?.text;
      shellStringConstruct(result, `${name} ${shellString}`, value, args[i + 1]?.literal ?? true);
      return [];
    }
    if (text.startsWith("-") && text.length > 1) i += optionTakesNextWord(text, spec.valued) ? 2 : 1;
    else if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) i += 1;
    else if (operands > 0) {
      operands -= 1;
      i += 1;
    } else break;
  }
  return args.slice(i + operands);
}

/** `-u root`, `-nu root` (a cluster ending in a valued flag) and `--user root` take the next word. */
function optionTakesNextWord(option: string, valued: readonly string[]): boolean {
  if (option.startsWith("--")) return !option.includes("=") && valued.includes(option);
  for (let k = 1; k < option.length; k += 1) {
    if (valued.includes(`-${option.charAt(k)}`)) return k === option.length - 1;
  }
  return false;
}

function inspectProgram(name: string, args: ShellWord[], via: string[], result: ProgramAnalysis): void {
  if (name === "eval") {
    construct(result, "eval", "eval runs its arguments as a command line");
    nestIfLiteral(result, "eval", args);
  } else if (name === "trap") {
    construct(result, "eval", "trap runs its first argument as a command line later");
    nestIfLiteral(result, "eval", args.slice(0, 1));
  } else if (SHELLS.has(name)) inspectShell(name, args, result);
  else if (AWK.test(name))
    construct(result, "inline-code", `${name} runs the program given on its command line`);
  else if (name === "find") inspectFind(args, via, result);
  else if (name === "git") inspectGit(args, result);
  else inspectInterpreter(name, args, result);
}

function inspectShell(name: string, args: ShellWord[], result: ProgramAnalysis): void {
  let commandString = false;
  let readsStdin = false;
  let i = 0;
  while (i < args.length) {
    const text = args[i]?.text ?? "";
    if (text === "-" || text === "--") {
      readsStdin = text === "-";
      i += 1;
      break;
    }
    if (/^[-+][oO]$/.test(text) || text === "--rcfile" || text === "--init-file") i += 2;
    else if (/^-[A-Za-z]+$/.test(text)) {
      commandString ||= text.includes("c");
      readsStdin ||= text.includes("s");
      i += 1;
    } else if (/^\+[A-Za-z]+$/.test(text) || text.startsWith("--")) i += 1;
    else break;
  }
  const operand = args[i];
  if (commandString) shellStringConstruct(result, `${name} -c`, operand?.text, operand?.literal ?? true);
  else if (!operand || readsStdin) construct(result, "shell-stdin", `${name} reads commands from its input`);
}

function inspectFind(args: ShellWord[], via: string[], result: ProgramAnalysis): void {
  for (let i = 0; i < args.length; i += 1) {
    if (!FIND_EXEC.has(args[i]?.text ?? "")) continue;
    const end = args.findIndex((word, k) => k > i && (word.text === ";" || word.text === "+"));
    const inner = args.slice(i + 1, end < 0 ? args.length : end);
    construct(
      result,
      "indirect-exec",
      `find ${args[i]?.text} runs ${summarise(inner[0]?.text ?? "a program")}`,
    );
    const analysis = analyseArgv(inner, [...via, "find"]);
    result.executes.push(...analysis.executes);
    result.constructs.push(...analysis.constructs);
    result.nested.push(...analysis.nested);
    i = end < 0 ? args.length : end;
  }
}

/** `git -c core.pager=…` or `--config-env` can make any git command run an arbitrary program. */
function inspectGit(args: ShellWord[], result: ProgramAnalysis): void {
  for (const arg of args) {
    if (!arg.text.startsWith("-")) return;
    if (arg.text === "-c" || arg.text.startsWith("--config-env") || arg.text.startsWith("--exec-path")) {
      construct(result, "inline-code", `git ${arg.text} can configure programs for git to run`);
      return;
    }
  }
}

function inspectInterpreter(name: string, args: ShellWord[], result: ProgramAnalysis): void {
  const flags = INLINE_CODE_FLAGS.find(([pattern]) => pattern.test(name))?.[1];
  if (!flags) return;
  const inline = args.some((arg) =>
    flags.some((flag) =>
      flag.startsWith("--")
        ? arg.text === flag || arg.text.startsWith(`${flag}=`)
        : arg.text === flag || new RegExp(`^-[A-Za-z]*${flag.charAt(1)}$`).test(arg.text),
    ),
  );
  if (inline) construct(result, "inline-code", `${name} runs code given on its command line`);
  else if (args.length === 0 || args.some((arg) => arg.text === "-"))
    construct(result, "inline-code", `${name} reads a program from its input`);
}

function shellStringConstruct(
  result: ProgramAnalysis,
  what: string,
  text: string | undefined,
  literal: boolean,
): void {
  construct(result, "shell-c", `${what} runs a command string`);
  if (text === undefined) return;
  if (literal) result.nested.push({ source: "shell-c", text });
  else construct(result, "dynamic-program", `${what} runs a command string computed at run time`);
}

function nestIfLiteral(result: ProgramAnalysis, source: ConstructKind, args: ShellWord[]): void {
  if (args.length === 0) return;
  if (args.every((arg) => arg.literal))
    result.nested.push({ source, text: args.map((a) => a.text).join(" ") });
  else construct(result, "dynamic-program", `${source} runs a command line computed at run time`);
}

function construct(result: ProgramAnalysis, kind: ConstructKind, detail: string): void {
  result.constructs.push({ kind, detail });
}
