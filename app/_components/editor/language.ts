/**
 * Which CodeMirror language a file gets, by its name. Pure (the editor loads the language's package
 * only when a file needs it). Unknown extensions are plain text.
 */

export const LANGUAGES = [
  "javascript",
  "jsx",
  "typescript",
  "tsx",
  "python",
  "markdown",
  "json",
  "css",
  "html",
] as const;
export type Language = (typeof LANGUAGES)[number];

const BY_EXTENSION: Readonly<Record<string, Language>> = {
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "jsx",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  py: "python",
  pyi: "python",
  md: "markdown",
  markdown: "markdown",
  json: "json",
  jsonc: "json",
  css: "css",
  html: "html",
  htm: "html",
};

/** Files whose whole name says what they are. */
const BY_NAME: Readonly<Record<string, Language>> = {
  ".babelrc": "json",
  ".eslintrc": "json",
  ".prettierrc": "json",
};

export function languageOf(path: string): Language | null {
  const name = (path.split("/").at(-1) ?? "").toLowerCase();
  const named = BY_NAME[name];
  if (named) return named;
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  return BY_EXTENSION[name.slice(dot + 1)] ?? null;
}

/** How the language is named to a person (the editor's status line). */
export function languageLabel(language: Language | null): string {
  if (!language) return "Plain text";
  const labels: Record<Language, string> = {
    javascript: "JavaScript",
    jsx: "JavaScript (JSX)",
    typescript: "TypeScript",
    tsx: "TypeScript (TSX)",
    python: "Python",
    markdown: "Markdown",
    json: "JSON",
    css: "CSS",
    html: "HTML",
  };
  return labels[language];
}

/** The line separator a file uses, so saving it does not turn CRLF into LF. */
export function lineSeparatorOf(text: string): "\r\n" | "\n" {
  return text.includes("\r\n") ? "\r\n" : "\n";
}
