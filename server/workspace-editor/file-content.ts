import { createHash } from "node:crypto";

/**
 * The editor's pure core: what a file's bytes are to a person (text, or binary and refused), the hash
 * a save carries to prove it edits what is there now, and the directory listing as tree entries.
 */

/** `sha256:<hex>` of the exact bytes (a string is hashed as UTF-8, as it is written). */
export function fileHash(content: Uint8Array | string): string {
  return `sha256:${createHash("sha256").update(content).digest("hex")}`;
}

export type DecodedFile = { ok: true; text: string } | { ok: false; reason: string };

/** Bytes this far in are looked at for NUL: the mark of a binary file (git looks at 8000). */
const NUL_WINDOW = 8_000;

/**
 * The file as text, or why it is not: a NUL byte or invalid UTF-8 means binary, and saving a binary
 * file back as text would corrupt it. A byte-order mark is kept, so saving does not drop it.
 */
export function decodeFile(bytes: Uint8Array): DecodedFile {
  if (bytes.subarray(0, NUL_WINDOW).includes(0))
    return { ok: false, reason: "it is a binary file (it contains NUL bytes)" };
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { ok: false, reason: "it is not UTF-8 text" };
  }
}

/**
 * Why a save must not go ahead, or null: the file in the sandbox is no longer the one the person
 * opened (`baseHash`, null for a file they are creating). `currentHash` is null when there is no file.
 */
export function conflictOf(path: string, baseHash: string | null, currentHash: string | null): string | null {
  if (baseHash === currentHash) return null;
  if (baseHash === null) return `${path} was created in the sandbox after you started it.`;
  if (currentHash === null) return `${path} was deleted in the sandbox since you opened it.`;
  return `${path} changed in the sandbox since you opened it (the agent or someone else wrote it).`;
}

export interface TreeEntry {
  /** Relative to /workspace, e.g. `src/app.ts`. */
  path: string;
  name: string;
  kind: "dir" | "file";
}

/** Never shown in the tree: git's internals are not for editing (and are protected anyway). */
const HIDDEN = new Set([".git"]);

/**
 * fs.list's typed data as tree entries of one folder: folders first, then files, each by name; `.git`
 * left out.
 */
export function treeEntries(listing: {
  entries: readonly { kind: "directory" | "file"; path: string }[];
  more: boolean;
}): { entries: TreeEntry[]; more: boolean } {
  const entries: TreeEntry[] = [];
  for (const { kind, path } of listing.entries) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (name === "" || HIDDEN.has(name)) continue;
    entries.push({ path, name, kind: kind === "directory" ? "dir" : "file" });
  }
  entries.sort((a, b) =>
    a.kind !== b.kind ? (a.kind === "dir" ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  return { entries, more: listing.more };
}

/** Longest name of one file or folder on Linux filesystems, in bytes. */
const MAX_NAME_BYTES = 255;

/**
 * Why a path a person typed for a new or renamed file cannot be used, or null. Names only: where the
 * path really leads (outside /workspace, through a symlink) is for the dispatch's scope guard.
 */
export function newPathProblem(path: string): string | null {
  if (path.trim() === "") return "Type a file name.";
  if (path !== path.trim()) return "A file name cannot start or end with spaces.";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(path)) return "A file name cannot contain control characters.";
  if (path.endsWith("/")) return "That is a folder name; add the file's name after the last /.";
  const relative = path.startsWith("/workspace/") ? path.slice("/workspace/".length) : path;
  if (relative.startsWith("/")) return "Give a path inside /workspace, e.g. src/notes.md.";
  for (const segment of relative.split("/")) {
    if (segment === "") return "A path cannot contain an empty folder name (//).";
    if (segment === "." || segment === "..") return "Give the path without . or .. folders.";
    if (Buffer.byteLength(segment, "utf8") > MAX_NAME_BYTES)
      return `A file or folder name is at most ${MAX_NAME_BYTES} bytes.`;
  }
  return null;
}
