import { fsSearchSpec } from "@/server/domain/tools/fs-search";
import { shellQuote } from "@/server/sandbox/shell";
import { quotedPath, relativePath } from "./paths";
import { combinedOutput, execIn, isFailure } from "./sandbox-calls";
import { implementTool } from "./types";

export const fsSearch = implementTool(fsSearchSpec, {
  async execute(input, runtime) {
    const where = quotedPath(input.path ?? ".");
    const flags = ["-rnI", input.regex ? "-E" : "-F", ...(input.ignoreCase ? ["-i"] : [])].join(" ");
    const excludes = "--exclude-dir=.git --exclude-dir=node_modules --exclude-dir=.next";
    // grep runs from /workspace with a relative target, so every match reads `path:line:text`.
    const command = `cd /workspace && grep ${flags} ${excludes} -e ${shellQuote(input.pattern)} -- ${where} | sed 's#^/workspace/##' | head -n ${input.maxResults + 1}; exit \${PIPESTATUS[0]}`;
    const result = await execIn(runtime, command);
    if (isFailure(result)) return result.failure;
    const name = relativePath(input.path ?? ".");
    const lines = result.stdout.split("\n").filter((line) => line !== "");
    // grep exits 1 for "no match" and 2 for trouble; head closing the pipe early is not trouble.
    if (lines.length === 0 && result.exitCode === 1)
      return { ok: true, output: `No matches for ${JSON.stringify(input.pattern)} in ${name}.` };
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
    return {
      ok: true,
      output:
        lines.slice(0, input.maxResults).join("\n") +
        (more ? `\n[more than ${input.maxResults} matches: narrow the pattern or the path]` : ""),
    };
  },
});
