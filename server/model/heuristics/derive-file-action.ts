import { unwrap } from "./derive-command";

/**
 * Seed 000's heuristic action generation for files, pure: an explicit instruction to create, write,
 * edit or delete a file becomes a call of the matching tool (fs.write, fs.edit, fs.delete) instead of
 * a shell command, so the person approving it sees a diff and the contract checks the file. Only a
 * few unambiguous phrasings count; anything else is left to the command rules.
 */

export interface DerivedFileAction {
  /** Which rule matched, for tests and logs. */
  rule: string;
  thought: string;
  tool: "fs.write" | "fs.edit" | "fs.delete";
  input: Record<string, string>;
  /** The acceptance that lets the contract check the result (FILE_EXISTS / FILE_CONTAINS), or null. */
  acceptance: string | null;
}

// A file name or value: backticked, quoted, or one bare word.
const TOKEN = "(`[^`]+`|'[^']+'|\"[^\"]+\"|\\S+)";
// Only backticked or quoted: a bare word after "create" is too often not a file ("create a function …").
const QUOTED = "(`[^`]+`|'[^']+'|\"[^\"]+\")";
const PLEASE = "(?:please\\s+)?";
const ARTICLE = "(?:a\\s+|an\\s+|the\\s+)?(?:new\\s+)?";
const NAMED = "(?:named\\s+|called\\s+)?";
const CONTAINING =
  "\\s+(?:with|containing|that\\s+contains)\\s+(?:the\\s+)?(?:(?:content|contents|text)\\s+)?";

/** A text the acceptance parser can quote in one backticked span (no backtick, no line break). */
function quotable(text: string): boolean {
  return text.trim() !== "" && !/[`\n]/.test(text) && text.length <= 200;
}

function containsAcceptance(path: string, text: string): string {
  return quotable(text) ? `the file \`${path}\` contains \`${text}\`` : `the file \`${path}\` exists`;
}

function write(rule: string, path: string, content: string): DerivedFileAction | undefined {
  if (path === "") return undefined;
  return {
    rule,
    thought: `Write the given content to ${path}.`,
    tool: "fs.write",
    input: { path, content: content.endsWith("\n") || content === "" ? content : `${content}\n` },
    acceptance: containsAcceptance(path, content),
  };
}

const RULES: { rule: string; pattern: RegExp; build(m: RegExpExecArray): DerivedFileAction | undefined }[] = [
  {
    rule: "create-file-with-content",
    pattern: new RegExp(
      `^${PLEASE}(?:create|write|make|add)\\s+${ARTICLE}(?:file\\s+${NAMED}${TOKEN}|${QUOTED})${CONTAINING}([\\s\\S]+)$`,
      "i",
    ),
    build: (m) => write("create-file-with-content", unwrap(m[1] ?? m[2] ?? ""), unwrap(m[3] ?? "")),
  },
  {
    rule: "write-content-to-file",
    pattern: new RegExp(
      `^${PLEASE}write\\s+([\\s\\S]+?)\\s+(?:to|into)\\s+(?:the\\s+)?(?:file\\s+)?${TOKEN}$`,
      "i",
    ),
    build: (m) => write("write-content-to-file", unwrap(m[2] ?? ""), unwrap(m[1] ?? "")),
  },
  {
    rule: "replace-in-file",
    pattern: new RegExp(
      `^${PLEASE}(?:replace|change)\\s+${QUOTED}\\s+(?:with|by|to|into)\\s+${QUOTED}\\s+in\\s+(?:the\\s+)?(?:file\\s+)?${TOKEN}$`,
      "i",
    ),
    build: (m) => {
      const search = unwrap(m[1] ?? "");
      const replace = unwrap(m[2] ?? "");
      const path = unwrap(m[3] ?? "");
      if (search === "" || path === "") return undefined;
      return {
        rule: "replace-in-file",
        thought: `Replace "${search}" with "${replace}" in ${path}.`,
        tool: "fs.edit",
        input: { path, search, replace },
        acceptance: quotable(replace) ? containsAcceptance(path, replace) : null,
      };
    },
  },
  {
    rule: "delete-file",
    pattern: new RegExp(`^${PLEASE}(?:delete|remove)\\s+(?:the\\s+)?(?:file\\s+${TOKEN}|${QUOTED})$`, "i"),
    build: (m) => {
      const path = unwrap(m[1] ?? m[2] ?? "");
      if (path === "") return undefined;
      return {
        rule: "delete-file",
        thought: `Delete the file ${path}.`,
        tool: "fs.delete",
        input: { path },
        acceptance: null,
      };
    },
  },
];

/** The file action an explicit instruction asks for, or undefined when the step is not one. */
export function deriveFileAction(what: string): DerivedFileAction | undefined {
  const text = what.trim().replace(/\.$/, "");
  for (const { pattern, build } of RULES) {
    const match = pattern.exec(text);
    const built = match ? build(match) : undefined;
    if (built) return built;
  }
  return undefined;
}
