import { fsReadSpec } from "@/server/domain/tools/fs-read";
import { quotedPath, relativePath } from "./paths";
import { combinedOutput, execIn, isFailure, noteTruncation } from "./sandbox-calls";
import { implementTool, type ToolOutput, type ToolRuntime } from "./types";

const MAX_READ_BYTES = 256 * 1024;
/** `exact` reads return the whole file, so they are capped by the file's size instead of cut. */
export const MAX_EXACT_READ_BYTES = 1024 * 1024;
/** What `exact` prints before the base64 when the file is larger than the cap: `too large <bytes>`. */
const TOO_LARGE = "too large ";

export const fsRead = implementTool(fsReadSpec, {
  async execute(input, runtime) {
    if (input.exact) return readExact(input.path, runtime);
    const file = quotedPath(input.path);
    const first = input.startLine ?? 1;
    const last = input.lineCount === undefined ? 0 : first + input.lineCount - 1;
    const command = [
      `if [ -d ${file} ]; then echo "is a directory" >&2; exit 3; fi`,
      `if [ ! -e ${file} ]; then echo "no such file" >&2; exit 2; fi`,
      `awk -v first=${first} -v last=${last} 'last && NR > last { exit } NR >= first { print }' ${file}`,
    ].join("\n");
    const result = await execIn(runtime, command, { maxOutputBytes: MAX_READ_BYTES });
    if (isFailure(result)) return result.failure;
    const name = relativePath(input.path);
    if (result.exitCode === 2) return { ok: false, code: "not_found", message: `${name} does not exist.` };
    if (result.exitCode === 3)
      return { ok: false, code: "not_a_file", message: `${name} is a directory; use fs.list to see it.` };
    if (result.exitCode !== 0)
      return {
        ok: false,
        code: "command_failed",
        message: `Could not read ${name}: ${result.stderr.trim().slice(0, 300)}`,
        output: combinedOutput(result),
      };
    const body =
      result.stdout === ""
        ? `(${name} is empty or has no lines from ${first} on)`
        : numbered(result.stdout, first);
    return {
      ok: true,
      output: noteTruncation(body, result.truncated),
      data: { text: result.stdout, firstLine: first, truncated: result.truncated },
    };
  },
});

/**
 * The file's exact bytes as base64 (what an editor needs to show it and hash it), refused with
 * too_large above MAX_EXACT_READ_BYTES rather than cut: half a file saved back would lose the rest.
 */
async function readExact(path: string, runtime: ToolRuntime): Promise<ToolOutput> {
  const file = quotedPath(path);
  const command = [
    `if [ -d ${file} ]; then echo "is a directory" >&2; exit 3; fi`,
    `if [ ! -e ${file} ]; then echo "no such file" >&2; exit 2; fi`,
    `size=$(stat -L -c %s -- ${file}) || exit 5`,
    `if [ "$size" -gt ${MAX_EXACT_READ_BYTES} ]; then echo "${TOO_LARGE}$size"; exit 4; fi`,
    `base64 -w0 -- ${file}`,
  ].join("\n");
  const result = await execIn(runtime, command, {
    maxOutputBytes: Math.ceil(MAX_EXACT_READ_BYTES / 3) * 4 + 1024,
  });
  if (isFailure(result)) return result.failure;
  const name = relativePath(path);
  if (result.exitCode === 2) return { ok: false, code: "not_found", message: `${name} does not exist.` };
  if (result.exitCode === 3)
    return { ok: false, code: "not_a_file", message: `${name} is a directory; use fs.list to see it.` };
  if (result.exitCode === 4) {
    const size = Number(result.stdout.trim().slice(TOO_LARGE.length));
    return {
      ok: false,
      code: "too_large",
      message: `${name} is ${size} bytes; an exact read returns at most ${MAX_EXACT_READ_BYTES} bytes.`,
    };
  }
  if (result.exitCode !== 0 || result.truncated)
    return {
      ok: false,
      code: "command_failed",
      message: `Could not read ${name}: ${result.stderr.trim().slice(0, 300)}`,
      output: combinedOutput(result),
    };
  return { ok: true, output: result.stdout.trim() };
}

/** Each line with its number in front, as the model reads a file: `     12\tconst a = 1;`. */
function numbered(text: string, first: number): string {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line, index) => `${String(first + index).padStart(6)}\t${line}\n`).join("");
}
