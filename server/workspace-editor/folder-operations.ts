import { randomUUID } from "node:crypto";
import { UserFacingError } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import { shellQuote } from "@/server/domain/text/shell-quote";
import type { CycleIds } from "@/server/governance/ledger/cycle-ledger";
import { protectionOf } from "@/server/governance/protected-paths";
import { approvalBinding } from "@/server/policy/approval/binding";
import type { ToolCall, ToolDispatch, ToolResult } from "@/server/tools/dispatch";
import { relativePath } from "@/server/tools/paths";
import { decodeFile, fileHash, newPathProblem } from "./file-content";
import { type DeleteRequest, ledgerEvents, type RenameRequest } from "./file-operations";
import { folderContents, insideOf } from "./folder-contents";
import {
  type EditorDeps,
  openDispatch,
  PERSON_INTENT,
  type Person,
  readExact,
  refusal,
} from "./workspace-editor";

/**
 * Renaming and deleting a folder from the Files card, file by file through the registry's own tools
 * (as a file's rename and delete are): fs.delete of each file, and for a rename fs.write of each
 * text file under the new name first, so the scope guard and protected paths see every path. The
 * folders left empty are removed with one `rmdir` through shell.exec (rmdir removes only empty
 * folders, and there is no tool for them). Every call is checked before the first one runs, and the
 * person's answer is bound to all of them together and to the folder as listed when asked.
 */

export type FolderOperationOutcome =
  | { status: "done"; editId: string; files: number }
  /** Send `binding` (and `currentHash` as `baseHash`) back to go ahead. */
  | { status: "confirm"; reason: string; binding: string; currentHash: string; files: number }
  | { status: "conflict"; message: string };

export async function deleteFolder(
  deps: EditorDeps,
  request: DeleteRequest,
): Promise<FolderOperationOutcome> {
  const { person } = request;
  const { dispatch, ledger } = await openDispatch(deps, person);
  const contents = await folderContents(dispatch, request.path);
  const { folder, files, listingHash } = contents;
  const deletes: ToolCall[] = files.map((path) => ({ tool: "fs.delete", input: { path } }));
  const calls = [...deletes, rmdirCall(contents.dirs)];
  const checked = await checkAll(dispatch, calls);
  const protectedFiles = files.filter((path) => protectionOf(path));
  const reason = [
    `${count(files.length, "file")} and ${count(contents.dirs.length, "folder")} will be deleted from the workspace.`,
    ...(protectedFiles.length > 0 ? [`Protected: ${protectedFiles.join(", ")}.`] : []),
  ].join(" ");
  const binding = approvalBinding("delete-folder", { calls: checked.map((c) => c.binding), listingHash });
  if (request.confirmBinding !== null && request.baseHash !== listingHash)
    return {
      status: "conflict",
      message: `${folder} changed in the sandbox since you asked to delete it; nothing was deleted.`,
    };
  if (request.confirmBinding !== binding)
    return { status: "confirm", reason, binding, currentHash: listingHash, files: files.length };

  const editId = randomUUID();
  const traceIds: CycleIds = { runId: null, intentionId: null, cycleId: editId };
  const results = await runAll(dispatch, calls, checked, person, traceIds);
  const deleted = results.filter((r) => r.status === "ok" && r.tool === "fs.delete").length;
  await deps.append([
    {
      type: "folder-deleted",
      editId,
      path: folder,
      by: person,
      files: files.slice(0, deleted).map((path) => insideOf(folder, path)),
      hash: listingHash,
      confirmed: reason,
    },
    ...ledgerEvents(results, traceIds, person, ledger?.workspaceChanged(traceIds) ?? null),
  ]);
  failedIn(results, `${deleted} of ${count(files.length, "file")} in ${folder} were deleted`);
  return { status: "done", editId, files: files.length };
}

export async function renameFolder(
  deps: EditorDeps,
  request: RenameRequest,
): Promise<FolderOperationOutcome> {
  const { person } = request;
  const problem = newPathProblem(request.to);
  if (problem) throw new UserFacingError(problem, "BAD_REQUEST");
  const to = relativePath(request.to);
  const { dispatch, ledger } = await openDispatch(deps, person);
  const contents = await folderContents(dispatch, request.from);
  const { folder: from, files } = contents;
  if (from === to) throw new UserFacingError(`${from} already has that name.`, "BAD_REQUEST");
  if (to.startsWith(`${from}/`))
    throw new UserFacingError(`${from} cannot be moved into itself (${to}).`, "BAD_REQUEST");
  if (files.length === 0)
    throw new UserFacingError(
      `${from} holds no files: git keeps a folder only through its files. Delete it, or create a file under ${to}.`,
      "BAD_REQUEST",
    );
  const target = await readExact(dispatch, to);
  if (target.error?.code !== "not_found") {
    if (target.status === "ok" || target.error?.code === "not_a_file" || target.error?.code === "too_large")
      return { status: "conflict", message: `${to} already exists; nothing was renamed.` };
    throw refusal(target);
  }

  const texts: { path: string; text: string; hash: string }[] = [];
  for (const path of files) {
    const read = await readExact(dispatch, path);
    if (read.status !== "ok") throw refusal(read);
    const bytes = Buffer.from(read.output, "base64");
    const decoded = decodeFile(bytes);
    if (!decoded.ok)
      throw new UserFacingError(
        `${from} cannot be renamed in the Files card: ${path} cannot (${decoded.reason}). Use the terminal (mv).`,
        "BAD_REQUEST",
      );
    texts.push({ path, text: decoded.text, hash: fileHash(bytes) });
  }
  const folderHash = fileHash(JSON.stringify(texts.map((t) => [t.path, t.hash])));
  const writes: ToolCall[] = texts.map((t) => ({
    tool: "fs.write",
    input: { path: `${to}/${insideOf(from, t.path)}`, content: t.text },
  }));
  const deletes: ToolCall[] = files.map((path) => ({ tool: "fs.delete", input: { path } }));
  const calls = [...writes, ...deletes, rmdirCall(contents.dirs)];
  const checked = await checkAll(dispatch, calls);

  // As for a file: the click on Rename approves the calls, except a protected path on either side or
  // a secret in a text, which the person must confirm in so many words.
  const reasons = [
    ...checked
      .slice(0, writes.length)
      .flatMap((c) => (c.status === "ask" && c.gate?.confirm ? [c.gate.reason] : [])),
    ...files.flatMap((path) => {
      const why = protectionOf(path);
      return why ? [`${path} is protected (${why}).`] : [];
    }),
  ];
  const binding = approvalBinding("rename-folder", { calls: checked.map((c) => c.binding), folderHash });
  if (request.baseHash !== null && request.baseHash !== folderHash)
    return {
      status: "conflict",
      message: `${from} changed in the sandbox since you asked to rename it; nothing was renamed.`,
    };
  if (reasons.length > 0 && request.confirmBinding !== binding)
    return {
      status: "confirm",
      reason: reasons.join(" "),
      binding,
      currentHash: folderHash,
      files: files.length,
    };

  const editId = randomUUID();
  const traceIds: CycleIds = { runId: null, intentionId: null, cycleId: editId };
  const results = await runAll(dispatch, calls, checked, person, traceIds);
  const moved = results.filter((r) => r.status === "ok" && r.tool === "fs.delete").length;
  const events: EventInput[] =
    moved === files.length
      ? [
          {
            type: "folder-renamed",
            editId,
            from,
            to,
            by: person,
            files: files.map((path) => insideOf(from, path)),
            hash: folderHash,
            confirmed: reasons.length > 0 ? reasons.join(" ") : null,
          },
        ]
      : // Stopped part way: the log says which copies were written, as a file's rename does.
        results
          .filter((r) => r.status === "ok" && r.tool === "fs.write")
          .map((r) => {
            const { path, content } = r.input as { path: string; content: string };
            return {
              type: "file-edited" as const,
              editId: randomUUID(),
              path: relativePath(path),
              by: person,
              baseHash: null,
              hash: fileHash(content),
              bytes: Buffer.byteLength(content, "utf8"),
              confirmed: null,
            };
          });
  await deps.append([
    ...events,
    ...ledgerEvents(results, traceIds, person, ledger?.workspaceChanged(traceIds) ?? null),
  ]);
  failedIn(results, `${from} was not renamed completely (${moved} of ${count(files.length, "file")} moved)`);
  return { status: "done", editId, files: files.length };
}

/** The emptied folders, deepest first (rmdir refuses a folder that still holds anything). */
function rmdirCall(dirs: string[]): ToolCall {
  return { tool: "shell.exec", input: { command: `rmdir -- ${dirs.map(shellQuote).join(" ")}` } };
}

/** Every gate for every call, before anything runs: one refusal refuses the whole operation. */
async function checkAll(dispatch: ToolDispatch, calls: ToolCall[]): Promise<ToolResult[]> {
  const checked: ToolResult[] = [];
  for (const call of calls) {
    const result = await dispatch.check(call, { activeIntent: PERSON_INTENT });
    if (result.status !== "ok" && result.status !== "ask") throw refusal(result);
    checked.push(result);
  }
  return checked;
}

/**
 * Runs the calls in order, each with the person's approval bound to it, until one fails. The trace
 * ledger snapshots around the writes (their lines are the person's) and the last file change (the
 * session's patch the replay follows); a delete in between writes no lines, so it skips the snapshots.
 */
async function runAll(
  dispatch: ToolDispatch,
  calls: ToolCall[],
  checked: ToolResult[],
  person: Person,
  traceIds: CycleIds,
): Promise<ToolResult[]> {
  const lastChange = calls.findLastIndex((call) => call.tool !== "shell.exec");
  const results: ToolResult[] = [];
  for (const [index, call] of calls.entries()) {
    const check = checked[index];
    const traced = call.tool === "fs.write" || index === lastChange;
    const result = await dispatch.run(call, {
      activeIntent: PERSON_INTENT,
      approval:
        check?.status === "ask" && check.binding ? { binding: check.binding, approver: person.name } : null,
      ...(traced ? { traceIds } : {}),
    });
    results.push(result);
    if (result.status !== "ok") break;
  }
  return results;
}

/** Throws the first failed call's reason, after its events are in the log. */
function failedIn(results: ToolResult[], what: string): void {
  const failed = results.find((result) => result.status !== "ok");
  if (!failed) return;
  const why = refusal(failed);
  throw new UserFacingError(`${what}: ${why.message}`, why.code);
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
