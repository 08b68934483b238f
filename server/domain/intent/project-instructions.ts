import { z } from "zod";
import { capEndCounted } from "@/server/domain/text/cap";

/**
 * Issue #21.1, pure: the project's instruction files (`AGENTS.md`, and `CLAUDE.md` where a directory
 * has no `AGENTS.md`), the file that applies to a path (the nearest one above it, as Codex reads
 * them), the text the model is sent, and the test commands they name in fenced code blocks.
 */

/** Preferred first: in one directory, AGENTS.md wins over CLAUDE.md. */
export const INSTRUCTION_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

/** How many instruction files discovery reads, root first (a monorepo has one per package at most). */
export const MAX_INSTRUCTION_FILES = 8;
/** Per file, as stored in the discovery event; the prompt budget is smaller (INSTRUCTIONS_CHARS). */
export const MAX_INSTRUCTION_FILE_CHARS = 20_000;
/** What every plan, act and check request carries of the instructions, root file first. */
export const INSTRUCTIONS_CHARS = 4_000;

export const ProjectInstruction = z.object({
  /** Workspace-relative, e.g. "AGENTS.md" or "packages/api/CLAUDE.md". */
  path: z.string().min(1).max(500),
  text: z.string().max(MAX_INSTRUCTION_FILE_CHARS + 100),
});
export type ProjectInstruction = z.infer<typeof ProjectInstruction>;

function directoryOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? "" : path.slice(0, cut);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function normalize(path: string): string {
  return path
    .replace(/^\.\//, "")
    .replace(/^\/workspace\//, "")
    .replace(/\/+$/, "");
}

/** The instruction file of each directory that has one (AGENTS.md preferred), keyed by directory. */
function filesByDirectory(files: readonly string[]): Map<string, string> {
  const byDirectory = new Map<string, string>();
  for (const name of INSTRUCTION_FILE_NAMES) {
    for (const file of files.map(normalize)) {
      if (baseName(file) !== name) continue;
      const directory = directoryOf(file);
      if (!byDirectory.has(directory)) byDirectory.set(directory, file);
    }
  }
  return byDirectory;
}

/**
 * The instruction file that applies to `path`: the one in its own directory, else the nearest
 * directory above it, up to the workspace root; null when none does.
 */
export function instructionFileFor(path: string, files: readonly string[]): string | null {
  const byDirectory = filesByDirectory(files);
  let directory = directoryOf(normalize(path));
  for (;;) {
    const found = byDirectory.get(directory);
    if (found) return found;
    if (directory === "") return null;
    directory = directoryOf(directory);
  }
}

/** Every directory's instruction file, the root's first, then shallower before deeper, capped. */
export function instructionFilesOf(files: readonly string[]): string[] {
  const depth = (file: string) => file.split("/").length;
  return [...filesByDirectory(files).values()]
    .sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))
    .slice(0, MAX_INSTRUCTION_FILES);
}

/**
 * The instructions as the model reads them, within `budget` characters: the root file first (it
 * applies everywhere), each nested one named with the directory it governs. Shortened with a marker
 * that says how much was cut, never left out: the caller records the shortening.
 */
export function instructionsText(
  instructions: readonly ProjectInstruction[],
  budget = INSTRUCTIONS_CHARS,
): { text: string; shortened: boolean } {
  const parts = instructions
    .filter((file) => file.text.trim() !== "")
    .map((file) => {
      const directory = directoryOf(file.path);
      const scope = directory === "" ? "the whole project" : `files under \`${directory}/\``;
      return `### ${file.path} (applies to ${scope})\n\n${file.text.trim()}`;
    });
  const text = parts.join("\n\n");
  return { text: capEndCounted(text, budget), shortened: text.length > budget };
}

/** Words a command starts with that make it a test run (a build or an install is not a check). */
const TEST_COMMAND =
  /^(npm (run )?test|npm run test:\S+|pnpm (run )?test|yarn (run )?test|npx (vitest|jest|mocha)|bun test|node --test|(python3? -m )?pytest|go test|cargo test|make (test|check)|bundle exec rspec|rspec|tox|nox)(\s|$)/;

/**
 * The test commands the instructions name in fenced code blocks (```sh … ```), one per line, in the
 * order written: a `$ ` prompt is dropped, comments and other commands are skipped. They become
 * checks only through the contract, under the command policy like any check.
 */
export function testCommandsIn(text: string): string[] {
  const found: string[] = [];
  const fences = text.matchAll(/^\s*(```|~~~)[^\n]*\n([\s\S]*?)^\s*\1\s*$/gm);
  for (const fence of fences) {
    for (const raw of (fence[2] ?? "").split("\n")) {
      const line = raw.trim().replace(/^\$\s+/, "");
      if (line.length > 300 || !TEST_COMMAND.test(line)) continue;
      if (!found.includes(line)) found.push(line);
    }
  }
  return found;
}
