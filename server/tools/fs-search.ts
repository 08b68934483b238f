import { shellQuote } from "@/server/domain/text/shell-quote";
import { fsSearchSpec } from "@/server/domain/tools/fs-search";
import { quotedPath, relativePath } from "./paths";
import { combinedOutput, execIn, isFailure } from "./sandbox-calls";
import { implementTool } from "./types";

export const fsSearch = implementTool(fsSearchSpec, {
  async execute(input, runtime) {
    const where = quotedPath(input.path ?? ".");
    // -Z ends each path with a NUL, so a path with `:12:` in it cannot be read as a line number.
    const flags = ["-rnIZ", input.regex ? "-E" : "-F", ...(input.ignoreCase ? ["-i"] : [])].join(" ");
    const excludes = "--exclude-dir=.git --exclude-dir=node_modules --exclude-dir=.next";
    // grep runs from /workspace with a relative target, so every match reads `path\0line:text`.
    const command = `cd /workspace && grep ${flags} ${excludes} -e ${shellQuote(input.pattern)} -- ${where} | sed 's#^/workspace/##' | head -n ${input.maxResults + 1}; exit \${PIPESTATUS[0]}`;
    const result = await execIn(runtime, command);
    if (isFailure(result)) return result.failure;
    const name = relativePath(input.path ?? ".");
    const lines = result.stdout.split("\n").filter((line) => line !== "");
    // grep exits 1 for "no match" and 2 for trouble; head closing the pipe early is not trouble.
    if (lines.length === 0 && result.exitCode === 1)
      return {
        ok: true,
        output: `No matches for ${JSON.stringify(input.pattern)} in ${name}.`,
        data: { matches: [], more: false },
      };
    if (lines.length === 0 && result.exitCode !== 0) {
      const missing = /No such file/.test(result.stderr);
      return {
        ok: false,
        code: missing ? "not_found" : "command_failed",
        message: missing
          ? `${name} does not exist.`
          : `The search failed: ${result.stderr.trim().slice(0, 300)}`,
        output: combinedOutput(result),
      };
    }
    const more = lines.length > input.maxResults;
    const matches = lines.slice(0, input.maxResults).map((line) => matchOf(line, name));
    return {
      ok: true,
      output:
        matches.map((match) => `${match.path}:${match.line}:${match.text}`).join("\n") +
        (more ? `\n[more than ${input.maxResults} matches: narrow the pattern or the path]` : ""),
      data: { matches, more },
    };
  },
});

/** One `grep -nZ` line: the path up to the NUL (none when a single file was searched), then `line:text`. */
function matchOf(line: string, searched: string): { path: string; line: number; text: string } {
  const nul = line.indexOf("\0");
  const path = nul < 0 ? searched : line.slice(0, nul);
  const rest = line.slice(nul + 1);
  const colon = rest.indexOf(":");
  return { path, line: Number(rest.slice(0, colon)), text: rest.slice(colon + 1) };
}
