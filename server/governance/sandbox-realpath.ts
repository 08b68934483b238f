import path from "node:path";
import type { SandboxExec } from "@/server/domain/sandbox-port";
import { shellQuote } from "@/server/domain/text/shell-quote";
import type { RealpathPort } from "./scope";

/**
 * For a call that acts on the directory entry itself (deleting a symbolic link): the parent directory
 * is resolved (symlinks in it followed), the last component is kept as written, so the entry is judged
 * where it is and a link's target is never followed.
 */
export function entryRealpath(realpath: RealpathPort): RealpathPort {
  return async (absolutePath) => {
    const parent = await realpath(path.posix.dirname(absolutePath));
    return path.posix.join(parent, path.posix.basename(absolutePath));
  };
}

const REALPATH_TIMEOUT_MS = 10_000;

/**
 * The realpath port backed by the session's sandbox: symlinks only exist inside the container, so that
 * is where they are resolved. `realpath -m` follows every existing component and keeps missing ones,
 * which is what a write to a new file needs.
 */
export function sandboxRealpath(sandbox: SandboxExec): RealpathPort {
  return async (absolutePath) => {
    const result = await sandbox.exec(`realpath -m -- ${shellQuote(absolutePath)}`, {
      timeoutMs: REALPATH_TIMEOUT_MS,
      maxOutputBytes: 16_384,
    });
    if (result.exitCode !== 0 || result.truncated)
      throw new Error(`realpath exited with ${result.exitCode}: ${result.stderr.trim().slice(0, 200)}`);
    // Exactly one trailing newline; paths with control characters were refused before we got here.
    return result.stdout.replace(/\n$/, "");
  };
}
