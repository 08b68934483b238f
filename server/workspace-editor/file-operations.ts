import { randomUUID } from "node:crypto";
import { UserFacingError } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import type { CycleIds } from "@/server/governance/ledger/cycle-ledger";
import { protectionOf } from "@/server/governance/protected-paths";
import { approvalBinding } from "@/server/policy/approval/binding";
import type { ToolCall, ToolResult } from "@/server/tools/dispatch";
import { relativePath } from "@/server/tools/paths";
import { decodeFile, fileHash, newPathProblem } from "./file-content";
import {
  approvedBy,
  type EditorDeps,
  openDispatch,
  PERSON_INTENT,
  type Person,
  readExact,
  refusal,
} from "./workspace-editor";

/**
 * Renaming and deleting a file from the Files card, as calls of the registry's own tools through the
 * dispatch: a rename is fs.write of the text at the new path then fs.delete of the old one (there is
 * no move tool, and this way the scope guard, protected paths and secret checks see both paths); a
 * delete is fs.delete. A delete always asks first (the confirmation dialog), bound to exactly that
 * call and to the file as it was when asked. A rename asks only when a path is protected or the text
 * looks like a secret; clicking Rename approves the two calls otherwise, as Save approves a write.
 */

export type FileOperationOutcome =
  | { status: "done"; editId: string }
  | { status: "conflict"; message: string }
  /** Send `binding` (and `currentHash` as `baseHash`) back to go ahead. */
  | { status: "confirm"; reason: string; binding: string; currentHash: string | null };

/** A delete from the Files card: `baseHash` and `confirmBinding` echo the question it answers. */
export interface DeleteRequest {
  path: string;
  baseHash: string | null;
  confirmBinding: string | null;
  person: Person;
}

/** A rename from the Files card (a file's or a folder's). */
export interface RenameRequest {
  from: string;
  to: string;
  baseHash: string | null;
  confirmBinding: string | null;
  person: Person;
}

export async function deleteFile(deps: EditorDeps, request: DeleteRequest): Promise<FileOperationOutcome> {
  const { person } = request;
  const name = relativePath(request.path);
  const { dispatch, ledger } = await openDispatch(deps, person);
  const current = await readExact(dispatch, request.path);
  let currentHash: string | null = null;
  if (current.status === "ok") currentHash = fileHash(Buffer.from(current.output, "base64"));
  else if (current.error?.code === "not_a_file")
    throw new UserFacingError(`${name} is a folder; the Files card deletes files only.`, "BAD_REQUEST");
  // A read the guard refuses (a symbolic link to outside /workspace) leaves nothing to compare; the
  // delete's own gate judges the entry itself, and deleting a link never touches its target.
  else if (current.error?.code !== "too_large" && current.status !== "denied") throw refusal(current);

  const call: ToolCall = { tool: "fs.delete", input: { path: request.path } };
  const checked = await dispatch.check(call, { activeIntent: PERSON_INTENT });
  if (checked.status !== "ok" && checked.status !== "ask") throw refusal(checked);
  const binding = checked.binding ?? "";
  const reason =
    checked.status === "ask"
      ? (checked.gate?.reason ?? "")
      : `${name} will be deleted from the workspace (file changes are pre-approved).`;
  if (request.confirmBinding !== binding) return { status: "confirm", reason, binding, currentHash };
  if (request.baseHash !== currentHash)
    return {
      status: "conflict",
      message: `${name} changed in the sandbox since you asked to delete it; nothing was deleted.`,
    };

  const editId = randomUUID();
  const traceIds: CycleIds = { runId: null, intentionId: null, cycleId: editId };
  const result = await dispatch.run(call, {
    activeIntent: PERSON_INTENT,
    approval: checked.status === "ask" ? { binding, approver: person.name } : null,
    traceIds,
  });
  if (result.status !== "ok") throw refusal(result);
  await deps.append([
    { type: "file-deleted", editId, path: name, by: person, hash: currentHash, confirmed: reason },
    ...ledgerEvents([result], traceIds, person, ledger?.workspaceChanged(traceIds) ?? null),
  ]);
  return { status: "done", editId };
}

export async function renameFile(deps: EditorDeps, request: RenameRequest): Promise<FileOperationOutcome> {
  const { person } = request;
  const problem = newPathProblem(request.to);
  if (problem) throw new UserFacingError(problem, "BAD_REQUEST");
  const from = relativePath(request.from);
  const to = relativePath(request.to);
  if (from === to) throw new UserFacingError(`${from} already has that name.`, "BAD_REQUEST");
  const { dispatch, ledger } = await openDispatch(deps, person);

  const source = await readExact(dispatch, request.from);
  if (source.status !== "ok") throw refusal(source);
  const bytes = Buffer.from(source.output, "base64");
  const decoded = decodeFile(bytes);
  if (!decoded.ok)
    throw new UserFacingError(
      `${from} cannot be renamed in the Files card: ${decoded.reason}. Use the terminal (mv).`,
      "BAD_REQUEST",
    );
  const hash = fileHash(bytes);
  if (request.baseHash !== null && request.baseHash !== hash)
    return {
      status: "conflict",
      message: `${from} changed in the sandbox since you opened it; nothing was renamed.`,
    };
  const target = await readExact(dispatch, request.to);
  const targetCode = target.error?.code;
  if (target.status === "ok" || targetCode === "not_a_file" || targetCode === "too_large")
    return { status: "conflict", message: `${to} already exists; nothing was renamed.` };
  if (targetCode !== "not_found") throw refusal(target);

  const write: ToolCall = { tool: "fs.write", input: { path: request.to, content: decoded.text } };
  const remove: ToolCall = { tool: "fs.delete", input: { path: request.from } };
  const checkedWrite = await dispatch.check(write, { activeIntent: PERSON_INTENT });
  if (checkedWrite.status !== "ok" && checkedWrite.status !== "ask") throw refusal(checkedWrite);
  const checkedRemove = await dispatch.check(remove, { activeIntent: PERSON_INTENT });
  if (checkedRemove.status !== "ok" && checkedRemove.status !== "ask") throw refusal(checkedRemove);

  // What a person must confirm explicitly: a protected path on either side, or a secret in the text.
  // (A delete's own "dangerous" question is answered by the Rename click: the text is not lost.)
  const reasons: string[] = [];
  if (checkedWrite.status === "ask" && checkedWrite.gate?.confirm) reasons.push(checkedWrite.gate.reason);
  const protectedSource = protectionOf(request.from);
  if (protectedSource) reasons.push(`${from} is protected (${protectedSource}).`);
  const binding = approvalBinding("rename", { write: checkedWrite.binding, delete: checkedRemove.binding });
  if (reasons.length > 0 && request.confirmBinding !== binding)
    return { status: "confirm", reason: reasons.join(" "), binding, currentHash: hash };

  const editId = randomUUID();
  const traceIds: CycleIds = { runId: null, intentionId: null, cycleId: editId };
  const approval = (checked: ToolResult) =>
    checked.status === "ask" && checked.binding ? { binding: checked.binding, approver: person.name } : null;
  const written = await dispatch.run(write, {
    activeIntent: PERSON_INTENT,
    approval: approval(checkedWrite),
    traceIds,
  });
  if (written.status !== "ok") throw refusal(written);
  const removed = await dispatch.run(remove, {
    activeIntent: PERSON_INTENT,
    approval: approval(checkedRemove),
    traceIds,
  });
  const changed = ledger?.workspaceChanged(traceIds) ?? null;
  const confirmed = reasons.length > 0 ? reasons.join(" ") : null;
  if (removed.status !== "ok") {
    // The copy exists: the log says so (a new file), and the person reads why the old one stayed.
    await deps.append([
      {
        type: "file-edited",
        editId,
        path: to,
        by: person,
        baseHash: null,
        hash,
        bytes: bytes.length,
        confirmed,
      },
      ...ledgerEvents([written], traceIds, person, changed),
    ]);
    const why = refusal(removed);
    throw new UserFacingError(
      `${to} was written, but ${from} could not be deleted: ${why.message}`,
      why.code,
    );
  }
  await deps.append([
    { type: "file-renamed", editId, from, to, by: person, hash, bytes: bytes.length, confirmed },
    ...ledgerEvents([written, removed], traceIds, person, changed),
  ]);
  return { status: "done", editId };
}

/** The trace records of a person's calls (approved by them) and the session's diff after them. */
export function ledgerEvents(
  results: ToolResult[],
  traceIds: CycleIds,
  person: Person,
  changed: EventInput | null,
): EventInput[] {
  const records = results.flatMap((result) => result.trace).map((record) => approvedBy(record, person.name));
  return [
    ...(records.length > 0 ? [{ type: "trace-recorded" as const, ...traceIds, records }] : []),
    ...(changed ? [changed] : []),
  ];
}
