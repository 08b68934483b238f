import { scopeGlobProblem } from "@/server/intents/project-intent";

/**
 * The offline model's owned_scope for a proposed child: the workspace paths its text names. A file
 * (`src/app.ts`, `README.md`) is owned exactly; a directory written with a trailing slash (`docs/`)
 * is owned with everything below it (`docs/**`). Pure and deterministic. A child that names no path
 * gets no scope: its writes then ask a person, as before (fail closed, never `**`).
 */

const MAX_GLOBS = 10;

/** Something that looks like a relative path: a word with a slash, or a file name with an extension. */
const PATH_TOKEN =
  /(?:^|[\s`'"(=:,])((?:\.{0,2}\/)?(?:[\w@.-]+\/)+[\w@.-]*|[\w@-][\w@.-]*\.[A-Za-z][\w]{0,9})(?=$|[\s`'"),;:!?])/g;

/** Endings that are prose or versions, not files ("e.g.", "v1.2", "i.e."). */
const NOT_A_FILE = /^(?:e\.g|i\.e|etc|vs|v?\d+(?:\.\d+)+|\d+\.\w+)$/i;

export function deriveOwnedScope(text: string): string[] {
  const globs: string[] = [];
  for (const match of text.matchAll(PATH_TOKEN)) {
    const token = (match[1] ?? "").replace(/[.,;:!?]+$/, "");
    const glob = toGlob(token);
    if (glob && !globs.includes(glob)) globs.push(glob);
    if (globs.length === MAX_GLOBS) break;
  }
  return globs;
}

function toGlob(token: string): string | null {
  if (token === "" || token.includes("://") || token.startsWith("-") || NOT_A_FILE.test(token)) return null;
  let path = token;
  while (path.startsWith("./")) path = path.slice(2);
  if (path.startsWith("/workspace/")) path = path.slice("/workspace/".length);
  if (path.startsWith("/") || path.split("/").includes("..")) return null;
  const glob = path.endsWith("/") ? `${path}**` : path;
  if (glob === "" || glob === "**") return null;
  return scopeGlobProblem(glob) === null ? glob : null;
}
