/**
 * Characters → words, operators and redirections, the way bash reads one command line, so the approval
 * gate sees the programs bash would run. It does not execute or expand anything: where the shell would
 * compute a word at run time (variables, substitutions, globs), the word is marked non-literal and the
 * gate treats it as unknown. Anything it cannot read with confidence is an error, never a guess.
 */
import {
  ansiCQuoteEnd,
  backtickBody,
  closingBracket,
  heredocBody,
  type PendingHeredoc,
  ShellSyntaxError,
  substitutionEnd,
  suspiciousCharacters,
  WordBuilder,
} from "./scan";
import {
  type Construct,
  type ConstructKind,
  type NestedCommand,
  type RedirectOperator,
  type ShellNote,
  type ShellOperator,
  type ShellToken,
  summarise,
} from "./vocabulary";

export interface LexOutput {
  tokens: ShellToken[];
  constructs: Construct[];
  notes: ShellNote[];
  nested: NestedCommand[];
}

export type LexResult = ({ ok: true } & LexOutput) | { ok: false; reason: string };

const SPECIAL_PARAMETER = /[A-Za-z0-9_@*#?$!-]/;
const ASSIGNABLE = /^[A-Za-z_][A-Za-z0-9_]*\+?$/;

export function lexShell(source: string): LexResult {
  try {
    return { ok: true, ...new Lexer(source).run() };
  } catch (error) {
    if (error instanceof ShellSyntaxError) return { ok: false, reason: error.message };
    throw error;
  }
}

class Lexer {
  private i = 0;
  private word = new WordBuilder();
  private readonly out: LexOutput = { tokens: [], constructs: [], notes: [], nested: [] };
  private expectingDelimiter: { stripTabs: boolean } | null = null;
  private heredocs: PendingHeredoc[] = [];

  constructor(private readonly s: string) {}

  run(): LexOutput {
    if (this.s.includes("\0")) throw new ShellSyntaxError("the command contains a NUL byte");
    this.out.constructs.push(...suspiciousCharacters(this.s));
    while (this.i < this.s.length) this.step();
    this.endWord();
    if (this.expectingDelimiter) throw new ShellSyntaxError("a here-document has no delimiter");
    if (this.heredocs.length > 0) throw new ShellSyntaxError("a here-document has no body");
    return this.out;
  }

  private step(): void {
    const c = this.s.charAt(this.i);
    const next = this.s.charAt(this.i + 1);
    if (c === "\\") {
      if (this.i + 1 >= this.s.length) throw new ShellSyntaxError("the command ends with a backslash");
      if (next === "\n") this.note("line-continuation");
      else this.word.add(next, true);
      this.i += 2;
    } else if (c === "'") {
      const end = this.s.indexOf("'", this.i + 1);
      if (end < 0) throw new ShellSyntaxError("unbalanced single quote");
      this.word.add(this.s.slice(this.i + 1, end), true);
      this.i = end + 1;
    } else if (c === '"') {
      this.word.add("", true);
      this.i = this.doubleQuoted(this.i + 1, '"');
    } else if (c === "`") {
      this.i = this.backticks(this.i + 1);
    } else if (c === "$") {
      this.i = this.dollar(this.i, false);
    } else if (c === " " || c === "\t") {
      this.endWord();
      this.i += 1;
    } else if (c === "\n") {
      this.endWord();
      this.operator("newline", 1);
      this.heredocBodies();
    } else if (c === "#" && !this.word.started) {
      const end = this.s.indexOf("\n", this.i);
      this.note("comment");
      this.i = end < 0 ? this.s.length : end;
    } else if ((c === "<" || c === ">") && next === "(") {
      const end = substitutionEnd(this.s, this.i + 2);
      this.hidden("process-substitution", this.s.slice(this.i + 2, end), this.s.slice(this.i, end + 1));
      this.i = end + 1;
    } else if (c === "<" || c === ">") {
      this.redirect(c);
    } else if (c === "&") {
      this.endWord();
      if (next === "&") this.operator("&&", 2);
      else if (next === ">") this.pushRedirect(this.s.startsWith("&>>", this.i) ? "&>>" : "&>", null);
      else {
        this.note("background");
        this.operator("&", 1);
      }
    } else if (c === "|") {
      this.endWord();
      if (next === "|") this.operator("||", 2);
      else this.operator("|", next === "&" ? 2 : 1);
    } else if (c === ";") {
      this.endWord();
      if (next === ";" || next === "&")
        throw new ShellSyntaxError("case-statement terminators are not analysed");
      this.operator(";", 1);
    } else if (c === "(" || c === ")") {
      this.endWord();
      // `(( … ))` is an arithmetic command, which can run code through array subscripts.
      if (c === "(" && next === "(")
        throw new ShellSyntaxError("arithmetic commands (( … )) are not analysed");
      this.operator(c, 1);
    } else {
      this.plain(c);
      this.i += 1;
    }
  }

  private plain(c: string): void {
    if ("*?[]{}".includes(c) || (c === "~" && !this.word.started)) this.word.literal = false;
    if (c === "=" && this.word.assignmentName === null && !this.word.quoted && this.word.literal) {
      if (ASSIGNABLE.test(this.word.text)) this.word.assignmentName = this.word.text.replace(/\+$/, "");
    }
    this.word.add(c, false);
  }

  /** Reads a double-quoted string (or, with no terminator, a here-document body) from `start`. */
  private doubleQuoted(start: number, terminator: '"' | null): number {
    let j = start;
    while (j < this.s.length) {
      const c = this.s.charAt(j);
      const next = this.s.charAt(j + 1);
      if (c === terminator) return j + 1;
      if (c === "\\" && next === "\n") j += 2;
      else if (c === "\\" && (next === "$" || next === "`" || next === "\\" || next === terminator)) {
        this.word.add(next, true);
        j += 2;
      } else if (c === "$") j = this.dollar(j, true);
      else if (c === "`") j = this.backticks(j + 1);
      else {
        this.word.add(c, true);
        j += 1;
      }
    }
    if (terminator !== null) throw new ShellSyntaxError("unbalanced double quote");
    return j;
  }

  private dollar(at: number, inDoubleQuotes: boolean): number {
    const next = this.s.charAt(at + 1);
    if (next === "(" && this.s.charAt(at + 2) === "(") {
      const end = substitutionEnd(this.s, at + 2);
      this.scanExpansions(this.s.slice(at + 3, end - 1), "arithmetic", this.s.slice(at, end + 1));
      return end + 1;
    }
    if (next === "(") {
      const end = substitutionEnd(this.s, at + 2);
      this.hidden("command-substitution", this.s.slice(at + 2, end), this.s.slice(at, end + 1));
      return end + 1;
    }
    if (next === "{" || next === "[") {
      const close = next === "{" ? "}" : "]";
      const end = closingBracket(this.s, at + 2, close);
      // `$[…]` is old arithmetic syntax; `${…}` may hide substitutions in defaults like ${x:-$(cmd)}.
      this.scanExpansions(
        this.s.slice(at + 2, end),
        next === "[" ? "arithmetic" : null,
        this.s.slice(at, end + 1),
      );
      return end + 1;
    }
    if (next === "'" && !inDoubleQuotes) return this.ansiCQuoted(at + 2);
    if (next === '"' && !inDoubleQuotes) {
      this.word.literal = false;
      this.word.add("", true);
      return this.doubleQuoted(at + 2, '"');
    }
    if (SPECIAL_PARAMETER.test(next)) this.word.literal = false;
    this.word.add("$", inDoubleQuotes);
    return at + 1;
  }

  /** `$'…'` decodes escapes such as `\x72`, so its text cannot be trusted as written. */
  private ansiCQuoted(start: number): number {
    const end = ansiCQuoteEnd(this.s, start);
    this.word.literal = false;
    this.word.add(this.s.slice(start, end), true);
    return end + 1;
  }

  private backticks(start: number): number {
    const { body, end } = backtickBody(this.s, start);
    this.hidden("backticks", body, this.s.slice(start - 1, end + 1));
    return end + 1;
  }

  /** A substitution: the word becomes unknown, and its body is split and checked as a command too. */
  private hidden(kind: ConstructKind, body: string, raw: string): void {
    this.word.literal = false;
    this.word.add(raw, false);
    this.out.constructs.push({ kind, detail: summarise(body) });
    this.out.nested.push({ source: kind, text: body });
  }

  /** Finds substitutions inside text that is expanded but not run as a command. */
  private scanExpansions(text: string, kind: ConstructKind | null, raw: string): void {
    this.word.literal = false;
    this.word.add(raw, false);
    if (kind) this.out.constructs.push({ kind, detail: summarise(text) });
    const inner = new Lexer(text);
    inner.doubleQuoted(0, null);
    this.out.constructs.push(...inner.out.constructs);
    this.out.nested.push(...inner.out.nested);
  }

  private redirect(c: "<" | ">"): void {
    let fd: number | null = null;
    const w = this.word;
    if (w.started && !w.quoted && w.literal && /^[0-9]+$/.test(w.text)) {
      fd = Number(w.text);
      this.word = new WordBuilder();
    } else this.endWord();
    const candidates: RedirectOperator[] =
      c === "<" ? ["<<<", "<<-", "<<", "<>", "<&", "<"] : [">>", ">|", ">&", ">"];
    const op = candidates.find((candidate) => this.s.startsWith(candidate, this.i)) ?? c;
    this.pushRedirect(op, fd);
  }

  private pushRedirect(op: RedirectOperator, fd: number | null): void {
    if (this.expectingDelimiter) throw new ShellSyntaxError("a here-document has no delimiter");
    this.out.tokens.push({ kind: "redirect", op, fd });
    this.i += op.length;
    if (op === "<<" || op === "<<-") {
      this.note("heredoc");
      this.expectingDelimiter = { stripTabs: op === "<<-" };
    }
    if (op === "<<<") this.note("here-string");
  }

  private heredocBodies(): void {
    for (const heredoc of this.heredocs) {
      const { body, next } = heredocBody(this.s, this.i, heredoc);
      this.i = next;
      if (heredoc.expands) {
        const saved = this.word;
        this.word = new WordBuilder();
        this.scanExpansions(body, null, "");
        this.word = saved;
      }
    }
    this.heredocs = [];
  }

  private endWord(): void {
    const w = this.word;
    if (!w.started) return;
    this.word = new WordBuilder();
    if (this.expectingDelimiter) {
      // A quoted delimiter turns expansion off in the body, so `$(…)` there is just text.
      this.heredocs.push({
        delimiter: w.text,
        expands: !w.quoted,
        stripTabs: this.expectingDelimiter.stripTabs,
      });
      this.expectingDelimiter = null;
    }
    this.out.tokens.push({ kind: "word", word: w.toWord() });
  }

  private operator(op: ShellOperator, length: number): void {
    if (this.expectingDelimiter) throw new ShellSyntaxError("a here-document has no delimiter");
    this.out.tokens.push({ kind: "operator", op });
    this.i += length;
  }

  private note(note: ShellNote): void {
    if (!this.out.notes.includes(note)) this.out.notes.push(note);
  }
}
