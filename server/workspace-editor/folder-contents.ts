import { UserFacingError } from "@/server/domain/errors";
import { FOLDER_MAX_FILES } from "@/server/domain/events/bodies/editor-files";
import { fsListSpec } from "@/server/domain/tools/fs-list";
import type { ToolDispatch } from "@/server/tools/dispatch";
import { relativePath } from "@/server/tools/paths";
import { toolData } from "@/server/tools/tool-data";
import { fileHash } from "./file-content";
import { refusal } from "./workspace-editor";

/** What a folder holds, as fs.list saw it (paths relative to /workspace). */
export interface FolderContents {
  /** The folder, relative to /workspace. */
  folder: string;
  files: string[];
  /** Its subfolders, deepest first, then the folder itself: the order `rmdir` removes them in. */
  dirs: string[];
  /** `sha256:` of the listing: the folder a person was asked about. */
  listingHash: string;
}

/** Folders fs.list shows but never enters: the Files card cannot move or delete what it cannot see. */
const NOT_WALKED = new Set([".git", "node_modules", ".venv", "__pycache__", ".next"]);

/**
 * Reads a folder through fs.list (the scope guard resolves it inside /workspace). Refuses the root,
 * a file, a link to a folder (its files belong to the folder it points at), a folder holding one that
 * fs.list does not walk, and more files than the Files card handles.
 */
export async function folderContents(dispatch: ToolDispatch, path: string): Promise<FolderContents> {
  const folder = relativePath(path);
  if (folder === "." || folder === "")
    throw new UserFacingError("The workspace itself cannot be renamed or deleted.", "BAD_REQUEST");
  const parent = folder.includes("/") ? folder.slice(0, folder.lastIndexOf("/")) : undefined;
  const siblings = await list(dispatch, parent, false, 5_000);
  const self = siblings.find((entry) => entry.path === folder);
  if (!self) throw new UserFacingError(`${folder} does not exist.`, "NOT_FOUND");
  // fs.list says `f` for a link, even one to a folder.
  if (self.kind !== "d")
    throw new UserFacingError(
      `${folder} is a file or a link, not a folder; use the file's own Rename and Delete.`,
      "BAD_REQUEST",
    );

  return planFolder(folder, await list(dispatch, folder, true, LIST_LIMIT));
}

/** Most entries (files and folders) read from a folder; a listing this long is refused. */
const LIST_LIMIT = FOLDER_MAX_FILES * 4;

/**
 * What a folder operation works through, from the folder's recursive listing (pure): its files, its
 * folders deepest first then itself, and the listing's hash; or the reason the Files card refuses it.
 */
export function planFolder(folder: string, entries: Entry[]): FolderContents {
  const files = entries.filter((entry) => entry.kind === "f").map((entry) => entry.path);
  const dirs = entries.filter((entry) => entry.kind === "d").map((entry) => entry.path);
  const hidden = dirs.find((dir) => NOT_WALKED.has(dir.slice(dir.lastIndexOf("/") + 1)));
  if (hidden)
    throw new UserFacingError(
      `${folder} holds ${hidden}, which the Files card does not open; use the terminal.`,
      "BAD_REQUEST",
    );
  if (files.length > FOLDER_MAX_FILES || entries.length >= LIST_LIMIT)
    throw new UserFacingError(
      `${folder} holds more than ${FOLDER_MAX_FILES} files; use the terminal for a folder this large.`,
      "BAD_REQUEST",
    );
  const deepestFirst = [...dirs].sort((a, b) => depth(b) - depth(a) || b.localeCompare(a));
  return {
    folder,
    files,
    dirs: [...deepestFirst, folder],
    listingHash: fileHash(JSON.stringify(entries.map((entry) => `${entry.kind} ${entry.path}`))),
  };
}

/** `path` relative to `folder` (a path inside it). */
export function insideOf(folder: string, path: string): string {
  return path.slice(folder.length + 1);
}

function depth(path: string): number {
  return path.split("/").length;
}

export interface Entry {
  kind: "d" | "f";
  path: string;
}

async function list(
  dispatch: ToolDispatch,
  path: string | undefined,
  recursive: boolean,
  limit: number,
): Promise<Entry[]> {
  const result = await dispatch.run(
    { tool: "fs.list", input: { ...(path ? { path } : {}), recursive, limit } },
    { activeIntent: null },
  );
  if (result.status !== "ok") {
    if (result.error?.code === "not_a_file")
      throw new UserFacingError(`${relativePath(path ?? ".")} is a file, not a folder.`, "BAD_REQUEST");
    throw refusal(result);
  }
  const listing = toolData(result, fsListSpec);
  if (!listing) throw refusal(result);
  return listing.entries.map((entry) => ({ kind: entry.kind === "directory" ? "d" : "f", path: entry.path }));
}
