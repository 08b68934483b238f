import { singleQuote } from "@/server/domain/text/shell-quote";
import { printLine } from "@/server/domain/text/shell-quote-always";
import { explicitCommand } from "./code-spans";

/**
 * Seed 000's heuristic action generation, pure: derive one shell command from an explicit instruction
 * in the step text. It never guesses beyond a few safe phrasings; anything else becomes a command that
 * explains itself on stderr and exits 2, so the judge records a clear failure instead of a silent one.
 */

export interface DerivedCommand {
  /** Which rule produced the command, for tests and logs. */
  rule: string;
  thought: string;
  command: string;
}

// A file name or value: backticked, quoted, or one bare word.
const TOKEN = "(`[^`]+`|'[^']+'|\"[^\"]+\"|\\S+)";
const FILE_WORDS =
  "(?:please\\s+)?(?:create|write|make|add)\\s+(?:a\\s+|an\\s+|the\\s+)?(?:new\\s+)?file\\s+(?:named\\s+|called\\s+)?";

/** Removes one layer of backticks or quotes, and a sentence's final full stop from bare words. */
export function unwrap(token: string): string {
  const text = token.trim();
  const quoted = /^(`+)([\s\S]*)\1$|^'([\s\S]*)'$|^"([\s\S]*)"$/.exec(text);
  if (quoted) return (quoted[2] ?? quoted[3] ?? quoted[4] ?? "").trim();
  return text.replace(/[.,;:]+$/, "");
}

const TEST_COMMAND = [
  "if [ -f package.json ]; then npm test",
  "elif [ -f pyproject.toml ] || [ -f pytest.ini ] || [ -d tests ]; then python3 -m pytest",
  "elif [ -f Makefile ]; then make test",
  `else ${printLine("offline model: no test runner found (package.json, pytest or Makefile)")} >&2; exit 2; fi`,
].join("; ");

const NOT_A_COMMAND = new Set([
  "the",
  "a",
  "an",
  "some",
  "all",
  "it",
  "this",
  "that",
  "them",
  "everything",
  "any",
]);

interface Rule {
  rule: string;
  pattern: RegExp;
  build(match: RegExpExecArray): { thought: string; command: string } | undefined;
}

const RULES: Rule[] = [
  {
    rule: "create-file-with-content",
    pattern: new RegExp(
      `^${FILE_WORDS}${TOKEN}\\s+(?:with|containing|that\\s+contains)\\s+(?:the\\s+)?(?:(?:content|contents|text)\\s+)?([\\s\\S]+)$`,
      "i",
    ),
    build: (m) => writeFile(unwrap(m[1] ?? ""), unwrap(m[2] ?? "")),
  },
  {
    rule: "write-content-to-file",
    pattern: new RegExp(
      `^(?:please\\s+)?write\\s+([\\s\\S]+?)\\s+(?:to|into)\\s+(?:the\\s+)?(?:file\\s+)?${TOKEN}$`,
      "i",
    ),
    build: (m) => writeFile(unwrap(m[2] ?? ""), unwrap(m[1] ?? "")),
  },
  {
    rule: "create-empty-file",
    pattern: new RegExp(
      `^(?:please\\s+)?(?:create|make|touch|add)\\s+(?:a\\s+|an\\s+|the\\s+)?(?:new\\s+|empty\\s+)*file\\s+(?:named\\s+|called\\s+)?${TOKEN}$`,
      "i",
    ),
    build: (m) => {
      const name = unwrap(m[1] ?? "");
      return { thought: `Create the empty file ${name}.`, command: `touch -- ${singleQuote(name)}` };
    },
  },
  {
    rule: "create-directory",
    pattern: new RegExp(
      `^(?:please\\s+)?(?:create|make|add)\\s+(?:a\\s+|the\\s+)?(?:new\\s+)?(?:directory|folder|dir)\\s+(?:named\\s+|called\\s+)?${TOKEN}$`,
      "i",
    ),
    build: (m) => {
      const name = unwrap(m[1] ?? "");
      return { thought: `Create the directory ${name}.`, command: `mkdir -p -- ${singleQuote(name)}` };
    },
  },
  {
    rule: "backticked-command",
    pattern: /`[^`]+`/,
    build: (m) => {
      const command = explicitCommand(m.input);
      return command ? { thought: `Run the command given in the step: ${command}`, command } : undefined;
    },
  },
  {
    rule: "run-tests",
    pattern: /^(?:please\s+)?(?:run|execute)\s+(?:all\s+)?(?:the\s+)?(?:unit\s+)?tests?(?:\s+suite)?$/i,
    build: () => ({
      thought: "Run the project's tests with the test runner its files point to.",
      command: TEST_COMMAND,
    }),
  },
  {
    rule: "run-command",
    pattern: /\b(?:run|execute)\s+(?:(?:the\s+)?command\s+)?(.+)$/i,
    build: (m) => {
      const command = unwrap(m[1] ?? "");
      const firstWord = command.split(/\s+/)[0]?.toLowerCase() ?? "";
      if (!/^[\w./-]+$/.test(firstWord) || NOT_A_COMMAND.has(firstWord)) return undefined;
      return { thought: `Run the command named in the step: ${command}`, command };
    },
  },
  {
    rule: "show-file",
    pattern: new RegExp(
      `^(?:show|print|cat|read|display)\\s+(?:the\\s+)?(?:contents?\\s+of\\s+)?(?:the\\s+)?file\\s+${TOKEN}$`,
      "i",
    ),
    build: (m) => {
      const name = unwrap(m[1] ?? "");
      return { thought: `Show the contents of ${name}.`, command: `cat -- ${singleQuote(name)}` };
    },
  },
  {
    rule: "delete-file",
    pattern: new RegExp(`^(?:delete|remove)\\s+(?:the\\s+)?file\\s+${TOKEN}$`, "i"),
    build: (m) => {
      const name = unwrap(m[1] ?? "");
      return {
        thought: `Delete the file ${name} (fails if it does not exist).`,
        command: `rm -- ${singleQuote(name)}`,
      };
    },
  },
  {
    rule: "git-status",
    pattern: /\bgit\s+status\b|\bshow\s+(?:the\s+)?(?:git\s+|repo\s+|repository\s+)?status\b/i,
    build: () => ({ thought: "Show the working tree status.", command: "git status" }),
  },
  {
    rule: "git-log",
    pattern: /\bgit\s+log\b|\bshow\s+(?:the\s+)?(?:git\s+)?(?:log|history|commits)\b/i,
    build: () => ({ thought: "Show the recent commits.", command: "git log --oneline -n 20" }),
  },
  {
    rule: "git-diff",
    pattern: /\bgit\s+diff\b|\bshow\s+(?:the\s+)?(?:diff|changes)\b/i,
    build: () => ({ thought: "Show the uncommitted changes.", command: "git diff" }),
  },
  {
    rule: "list-files",
    pattern: new RegExp(
      `\\b(?:list|show)\\s+(?:all\\s+)?(?:the\\s+)?(?:files|directory|folder|contents)(?:\\s+in\\s+(?:the\\s+)?(?:directory\\s+|folder\\s+)?${TOKEN})?`,
      "i",
    ),
    build: (m) => {
      const dir = m[1] ? unwrap(m[1]) : undefined;
      return dir
        ? { thought: `List the files in ${dir}.`, command: `ls -la -- ${singleQuote(dir)}` }
        : { thought: "List the files in the workspace.", command: "ls -la" };
    },
  },
  {
    rule: "print-text",
    pattern: /^(?:print|echo|say|output)\s+([\s\S]+)$/i,
    build: (m) => {
      const text = unwrap(m[1] ?? "");
      return { thought: `Print "${text}".`, command: printLine(text) };
    },
  },
];

function writeFile(name: string, content: string): { thought: string; command: string } | undefined {
  if (name === "") return undefined;
  return {
    thought: `Write the given content to ${name}.`,
    command: `${printLine(content)} > ${singleQuote(name)}`,
  };
}

/** The command that explains, on stderr, why nothing could be derived; it exits 2 (usage error). */
export function explainNoCommand(what: string): string {
  const message = `offline model: no explicit command in '${what}'; put the command in backticks, e.g. run \`npm test\``;
  return `${printLine(message)} >&2; exit 2`;
}

export function deriveCommand(what: string): DerivedCommand {
  const text = what.trim();
  for (const { rule, pattern, build } of RULES) {
    const match = pattern.exec(text);
    const built = match ? build(match) : undefined;
    if (built) return { rule, ...built };
  }
  return {
    rule: "no-command",
    thought: "The offline model found no explicit command in this step and will not guess one.",
    command: explainNoCommand(text),
  };
}
