import { lexShell } from "./lexer";
import { analyseArgv, type ExecutedProgram } from "./programs";
import { ShellSyntaxError } from "./scan";
import type {
  Construct,
  ConstructKind,
  RedirectOperator,
  ShellNote,
  ShellOperator,
  ShellToken,
  ShellWord,
} from "./vocabulary";

/**
 * Splits one shell command line into the simple commands bash would run (`a && b | c; d &`), with each
 * one's program, arguments, assignments and redirections, plus every command hidden in substitutions,
 * `-c` strings and `find -exec`. Approval rules match programs by name and argument prefix, so this is
 * what lets "allow `npm test`" approve `npm test` and nothing that merely contains it.
 *
 * When the line is beyond what this reads with confidence (unbalanced quotes, `for`/`case` bodies,
 * `[[ … ]]`, syntax errors), the result is `{ ok: false }` and the gate must ask or deny.
 */

export type { Construct, ConstructKind, ExecutedProgram, ShellNote, ShellWord };

export type RedirectionKind = "read" | "write" | "fd-duplicate" | "heredoc" | "here-string";

export interface Redirection {
  operator: RedirectOperator;
  fd: number | null;
  /** The file (or fd number, or heredoc delimiter) after the operator. */
  target: ShellWord;
  kind: RedirectionKind;
}

export type PartJoin = "start" | "&&" | "||" | ";" | "|" | "&" | "newline" | "subshell";

export interface CommandPart {
  /** How this part follows the previous one. */
  joinedBy: PartJoin;
  /** `command` for the line itself, otherwise the construct it was hidden in. */
  origin: "command" | ConstructKind;
  /** `NAME=value` words before the program. */
  assignments: ShellWord[];
  /** The argv: program first. Empty for a part that only assigns or redirects. */
  words: ShellWord[];
  program: string | null;
  args: string[];
  redirections: Redirection[];
  /** The program and everything it runs through wrappers (`sudo rm` runs both `sudo` and `rm`). */
  executes: ExecutedProgram[];
}

export type ShellSplit =
  | { ok: true; parts: CommandPart[]; constructs: Construct[]; notes: ShellNote[] }
  | { ok: false; reason: string };

const MAX_NESTING = 8;
/** Reserved words that may precede a simple command; they are skipped to find the program. */
const PREFIX_KEYWORDS = new Set(["!", "if", "then", "else", "elif", "do", "while", "until", "{", "time"]);
const CLOSING_KEYWORDS = new Set(["fi", "done", "}", "esac"]);
/** Compound commands whose bodies are not simple commands; analysing them is left to a person. */
const UNSUPPORTED_KEYWORDS = new Set(["for", "case", "select", "function", "coproc", "[[", "]]", "in"]);

export function splitShellCommand(command: string): ShellSplit {
  try {
    return { ok: true, ...split(command, "command", 0) };
  } catch (error) {
    if (error instanceof ShellSyntaxError) return { ok: false, reason: error.message };
    throw error;
  }
}

interface SplitOutput {
  parts: CommandPart[];
  constructs: Construct[];
  notes: ShellNote[];
}

function split(command: string, origin: CommandPart["origin"], depth: number): SplitOutput {
  if (depth > MAX_NESTING) throw new ShellSyntaxError("substitutions are nested too deeply to analyse");
  const lexed = lexShell(command);
  if (!lexed.ok) throw new ShellSyntaxError(lexed.reason);
  const output: SplitOutput = { parts: [], constructs: [...lexed.constructs], notes: [...lexed.notes] };
  const raw = groupTokens(lexed.tokens);
  if (raw.subshell && !output.notes.includes("subshell")) output.notes.push("subshell");
  for (const part of raw.parts) {
    const analysis = analyseArgv(part.words);
    output.parts.push({
      ...part,
      origin,
      program: part.words[0]?.text ?? null,
      args: part.words.slice(1).map((word) => word.text),
      executes: analysis.executes,
    });
    output.constructs.push(...analysis.constructs);
    for (const nested of analysis.nested) lexed.nested.push(nested);
  }
  for (const nested of lexed.nested) {
    const inner = split(nested.text, nested.source, depth + 1);
    output.parts.push(...inner.parts);
    output.constructs.push(...inner.constructs);
    for (const note of inner.notes) if (!output.notes.includes(note)) output.notes.push(note);
  }
  return output;
}

type RawPart = Omit<CommandPart, "origin" | "program" | "args" | "executes">;

interface PartBuilder {
  joinedBy: PartJoin;
  words: ShellWord[];
  redirections: Redirection[];
}

function groupTokens(tokens: readonly ShellToken[]): { parts: RawPart[]; subshell: boolean } {
  const parts: RawPart[] = [];
  let current: PartBuilder = { joinedBy: "start", words: [], redirections: [] };
  let pendingRedirect: Extract<ShellToken, { kind: "redirect" }> | null = null;
  // After `&&`, `||` or `|` another command must follow (newlines may come first).
  let needsCommand: ShellOperator | null = null;
  let justClosedSubshell = false;
  let depth = 0;
  let subshell = false;

  const isEmpty = () => current.words.length === 0 && current.redirections.length === 0;
  const flush = (next: PartJoin) => {
    if (!isEmpty()) {
      parts.push(buildPart(current));
      needsCommand = null;
    }
    current = { joinedBy: next, words: [], redirections: [] };
  };

  for (const token of tokens) {
    if (token.kind === "word") {
      if (pendingRedirect) {
        current.redirections.push(toRedirection(pendingRedirect, token.word));
        pendingRedirect = null;
      } else current.words.push(token.word);
      justClosedSubshell = false;
      continue;
    }
    if (pendingRedirect) throw new ShellSyntaxError(`the redirection ${pendingRedirect.op} has no target`);
    if (token.kind === "redirect") {
      pendingRedirect = token;
      continue;
    }
    const op = token.op;
    if (op === "(") {
      if (current.words.some((word) => !isKeyword(word, PREFIX_KEYWORDS)) || current.redirections.length > 0)
        throw new ShellSyntaxError("unexpected '(' (function definitions and arrays are not analysed)");
      depth += 1;
      subshell = true;
      continue;
    }
    if (op === ")") {
      depth -= 1;
      if (depth < 0) throw new ShellSyntaxError("unbalanced ')'");
      flush("subshell");
      justClosedSubshell = true;
      continue;
    }
    if (op === "newline") {
      if (isEmpty() && needsCommand) continue;
      flush("newline");
      continue;
    }
    if (isEmpty() && !justClosedSubshell) throw new ShellSyntaxError(`'${op}' has no command before it`);
    flush(op);
    justClosedSubshell = false;
    if (op === "&&" || op === "||" || op === "|") needsCommand = op;
  }
  if (pendingRedirect) throw new ShellSyntaxError(`the redirection ${pendingRedirect.op} has no target`);
  if (depth !== 0) throw new ShellSyntaxError("unbalanced '('");
  flush("newline");
  if (needsCommand) throw new ShellSyntaxError(`the command ends with '${needsCommand}'`);
  return { parts, subshell };
}

function isKeyword(word: ShellWord, set: ReadonlySet<string>): boolean {
  return !word.quoted && set.has(word.text);
}

function buildPart(builder: PartBuilder): RawPart {
  const words = [...builder.words];
  while (words[0] && isKeyword(words[0], PREFIX_KEYWORDS)) {
    const keyword = words.shift();
    if (keyword?.text === "time") while (words[0]?.text.startsWith("-")) words.shift();
  }
  const first = words[0];
  if (first && !first.quoted && UNSUPPORTED_KEYWORDS.has(first.text))
    throw new ShellSyntaxError(`'${first.text}' compound commands are not analysed`);
  if (first && isKeyword(first, CLOSING_KEYWORDS) && words.length === 1) words.shift();
  const assignments: ShellWord[] = [];
  while (words[0]?.assignmentName) {
    const assignment = words.shift();
    if (assignment) assignments.push(assignment);
  }
  return { joinedBy: builder.joinedBy, assignments, words, redirections: builder.redirections };
}

function toRedirection(token: Extract<ShellToken, { kind: "redirect" }>, target: ShellWord): Redirection {
  return { operator: token.op, fd: token.fd, target, kind: redirectionKind(token.op, target) };
}

function redirectionKind(op: RedirectOperator, target: ShellWord): RedirectionKind {
  if (op === "<<" || op === "<<-") return "heredoc";
  if (op === "<<<") return "here-string";
  // `>&2`, `2>&1` and `<&-` copy or close descriptors; `>&file` (no digits) writes to a file.
  if ((op === ">&" || op === "<&") && target.literal && /^([0-9]+-?|-)$/.test(target.text))
    return "fd-duplicate";
  if (op === "<") return "read";
  if (op === "<&") return "read";
  return "write";
}
