import { z } from "zod";

/**
 * A person's file operations from the Files card besides saves (which are `file-edited`; creating a
 * file is a save of an empty new file, with `baseHash` null). Both went through the tool dispatch
 * like the agent's calls; `editId` ties an event to its `trace-recorded` and `workspace-changed`.
 */

const Person = z.object({ userId: z.string(), name: z.string() });

/** A person renamed a file: its text written at `to` (fs.write), then `from` deleted (fs.delete). */
export const FileRenamedBody = z.object({
  type: z.literal("file-renamed"),
  editId: z.string(),
  from: z.string().max(4_096),
  to: z.string().max(4_096),
  by: Person,
  /** The content moved (unchanged), as `sha256:<hex>`. */
  hash: z.string(),
  bytes: z.number().int().nonnegative(),
  /** The reason of a protected path or a secret the person confirmed, or null when nothing asked. */
  confirmed: z.string().max(2_000).nullable(),
});

/** A person deleted a file (fs.delete), after confirming it in the Files card. */
export const FileDeletedBody = z.object({
  type: z.literal("file-deleted"),
  editId: z.string(),
  path: z.string().max(4_096),
  by: Person,
  /** What was deleted, as `sha256:<hex>`; null when it was too large to hash through an exact read. */
  hash: z.string().nullable(),
  /** The gate's reason the person confirmed (a delete always asks; a protected path says so). */
  confirmed: z.string().max(2_000).nullable(),
});

/** Most files a folder operation in the Files card moves or deletes; more is for the terminal. */
export const FOLDER_MAX_FILES = 200;

/**
 * A person renamed a folder: each of its text files written under `to` (fs.write) then deleted under
 * `from` (fs.delete), and the emptied folders removed (`rmdir`, through shell.exec).
 */
export const FolderRenamedBody = z.object({
  type: z.literal("folder-renamed"),
  editId: z.string(),
  from: z.string().max(4_096),
  to: z.string().max(4_096),
  by: Person,
  /** The files moved, relative to the folder. */
  files: z.array(z.string().max(4_096)).max(FOLDER_MAX_FILES),
  /** The folder as moved (its files' paths and hashes), as `sha256:<hex>`. */
  hash: z.string(),
  confirmed: z.string().max(2_000).nullable(),
});

/** A person deleted a folder (fs.delete of each file, then `rmdir` of the emptied folders), after confirming. */
export const FolderDeletedBody = z.object({
  type: z.literal("folder-deleted"),
  editId: z.string(),
  path: z.string().max(4_096),
  by: Person,
  /** The files deleted, relative to the folder. */
  files: z.array(z.string().max(4_096)).max(FOLDER_MAX_FILES),
  /** The folder's listing the person was asked about, as `sha256:<hex>`. */
  hash: z.string(),
  confirmed: z.string().max(2_000).nullable(),
});

/**
 * This family's event types (a person's file and folder operations in the editor).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const EDITOR_FILE_EVENTS = [
  FileRenamedBody,
  FileDeletedBody,
  FolderRenamedBody,
  FolderDeletedBody,
] as const;
