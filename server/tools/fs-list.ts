import { fsListSpec } from "@/server/domain/tools/fs-list";
import { quotedPath, relativePath } from "./paths";
import { combinedOutput, execIn, isFailure } from "./sandbox-calls";
import { implementTool } from "./types";

/** Folders nobody reads entry by entry: listed as one line, never descended into. */
const PRUNED = [".git", "node_modules", ".venv", "__pycache__", ".next"];

export const fsList = implementTool(fsListSpec, {
  async execute(input, runtime) {
    const dir = quotedPath(input.path ?? ".");
    const depth = input.recursive ? 64 : 1;
    const prune = PRUNED.map((name) => `-name ${name}`).join(" -o ");
    const command = [
      `if [ ! -e ${dir} ]; then echo "no such directory" >&2; exit 2; fi`,
      `if [ ! -d ${dir} ]; then echo "not a directory" >&2; exit 3; fi`,
      `cd ${dir} && find . -mindepth 1 -maxdepth ${depth} \\( \\( ${prune} \\) -prune -printf 'd %P\\n' \\) -o -printf '%y %P\\n' | LC_ALL=C sort -k2 | head -n ${input.limit + 1}`,
    ].join("\n");
    const result = await execIn(runtime, command);
    if (isFailure(result)) return result.failure;
    const name = relativePath(input.path ?? ".");
    if (result.exitCode === 2) return { ok: false, code: "not_found", message: `${name} does not exist.` };
    if (result.exitCode === 3)
      return { ok: false, code: "not_a_file", message: `${name} is a file, not a directory; use fs.read.` };
    if (result.exitCode !== 0)
      return {
        ok: false,
        code: "command_failed",
        message: `Could not list ${name}.`,
        output: combinedOutput(result),
      };
    const base = name === "." ? "" : `${name}/`;
    const found = result.stdout
      .split("\n")
      .filter((line) => line !== "")
      // `find -printf %y` says l for a link, f for a file; the model needs only file or directory.
      .map(
        (line) =>
          ({ kind: line[0] === "d" ? "directory" : "file", path: `${base}${line.slice(2)}` }) as const,
      );
    const more = found.length > input.limit;
    const entries = found.slice(0, input.limit);
    const data = { entries, more };
    if (entries.length === 0) return { ok: true, output: `(${name} is empty)`, data };
    const lines = entries.map((entry) => `${entry.kind === "directory" ? "d" : "f"} ${entry.path}`);
    return {
      ok: true,
      output: lines.join("\n") + (more ? `\n[more than ${input.limit} entries: list a subdirectory]` : ""),
      data,
    };
  },
});
