import { capLine } from "@/server/domain/text/cap";
/**
 * The words the shell analysis speaks: what a command line is made of (words, operators,
 * redirections) and the constructs and notes the approval gate reports to the person asked.
 */

/** Shell features that can hide what runs; a command using any of them is never auto-approved. */
export const CONSTRUCT_KINDS = [
  "command-substitution",
  "backticks",
  "process-substitution",
  "arithmetic",
  "eval",
  "shell-c",
  "shell-stdin",
  "inline-code",
  "privilege",
  "exec",
  "indirect-exec",
  "dynamic-program",
  "look-alike-characters",
  "control-characters",
] as const;
export type ConstructKind = (typeof CONSTRUCT_KINDS)[number];

export interface Construct {
  kind: ConstructKind;
  detail: string;
}

/** Harmless but worth showing to the person approving. */
export const SHELL_NOTES = [
  "heredoc",
  "here-string",
  "comment",
  "line-continuation",
  "background",
  "subshell",
] as const;
export type ShellNote = (typeof SHELL_NOTES)[number];

export interface ShellWord {
  /**
   * The word after quote removal: what the program receives when nothing in it expands. Expansions
   * stay as written (`$HOME`, `$(id)`), for showing to people; such a word is not literal.
   */
  text: string;
  /** False when bash may change the word at run time (expansions, globs, braces, tilde, `$'…'`). */
  literal: boolean;
  /** Some of it was quoted or escaped; a quoted word is never a reserved word like `if` or `{`. */
  quoted: boolean;
  /** `NAME` for a `NAME=value` or `NAME+=value` word, otherwise null. */
  assignmentName: string | null;
}

export type ShellOperator = "&&" | "||" | ";" | "|" | "&" | "(" | ")" | "newline";
export type RedirectOperator =
  | "<"
  | ">"
  | ">>"
  | ">|"
  | "<>"
  | "<<"
  | "<<-"
  | "<<<"
  | "&>"
  | "&>>"
  | ">&"
  | "<&";

export type ShellToken =
  | { kind: "word"; word: ShellWord }
  | { kind: "operator"; op: ShellOperator }
  | { kind: "redirect"; op: RedirectOperator; fd: number | null };

/** A command hidden inside another (a substitution body), to be split and checked in turn. */
export interface NestedCommand {
  source: ConstructKind;
  text: string;
}

/** One line, at most `max` characters: for reasons shown to people. */
export function summarise(text: string, max = 60): string {
  return capLine(text, max);
}
