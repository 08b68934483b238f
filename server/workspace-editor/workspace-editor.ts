import { randomUUID } from "node:crypto";
import { UserFacingError } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import { fsListSpec } from "@/server/domain/tools/fs-list";
import type { ActiveIntent } from "@/server/governance/intent-gate";
import { ledgerExecOf } from "@/server/governance/ledger/collect";
import { CycleLedger } from "@/server/governance/ledger/cycle-ledger";
import {
  type AgentTraceRecord,
  ARBOR_METADATA_KEY,
  arborMetadataOf,
} from "@/server/governance/ledger/record";
import { sessionDispatch } from "@/server/runtime/session-runtime";
import type { Sandbox } from "@/server/sandbox/types";
import type { ToolCall, ToolDispatch, ToolResult } from "@/server/tools/dispatch";
import { relativePath } from "@/server/tools/paths";
import { toolData } from "@/server/tools/tool-data";
import type { GatePolicy } from "@/server/tools/tool-gate";
import {
  conflictOf,
  decodeFile,
  fileHash,
  newPathProblem,
  type TreeEntry,
  treeEntries,
} from "./file-content";

/**
 * A person's editor over the session's workspace. Every call goes through the tool dispatch, the
 * door the agent uses: reads with fs.list / fs.read, a save with fs.write under the person's own
 * intent (owned scope `**`), so the scope guard (`..`, symlinks), protected paths and secret checks
 * apply to people too. A save is the person's approval of that write, except where the gate asks for
 * an explicit confirmation (a protected path, a secret): then it comes back as a question, and only
 * the binding of exactly that call, sent back, writes it. Each save is logged (`file-edited`) and
 * recorded in the trace ledger as a human contribution.
 */

export interface Person {
  userId: string;
  name: string;
}

export interface EditorDeps {
  sessionId: string;
  /** The session's sandbox, or null when it has none (never started, or discarded). */
  sandbox(): Promise<Sandbox | null>;
  policy(): Promise<GatePolicy>;
  append(bodies: EventInput[]): Promise<unknown>;
  timeoutMs: number;
  workspaceMaxBytes: number | null;
  logger?: { warn(object: object, message: string): void };
}

export interface OpenedFile {
  path: string;
  text: string;
  /** What a save sends back as `baseHash`. */
  hash: string;
  bytes: number;
}

export type SaveOutcome =
  | { status: "saved"; hash: string; editId: string }
  | { status: "conflict"; message: string; currentHash: string | null }
  | { status: "confirm"; reason: string; binding: string };

/** The intent a person's saves run under: the whole workspace is theirs to edit. */
export const PERSON_INTENT: ActiveIntent = { id: "PERSON-EDIT", ownedScope: ["**"] };

const LIST_LIMIT = 2_000;

export class WorkspaceEditor {
  constructor(private readonly deps: EditorDeps) {}

  async list(path: string | undefined): Promise<{ entries: TreeEntry[]; more: boolean }> {
    const { dispatch } = await this.open(null);
    const result = await dispatch.run(
      { tool: "fs.list", input: { ...(path ? { path } : {}), limit: LIST_LIMIT } },
      { activeIntent: null },
    );
    const listing = toolData(result, fsListSpec);
    if (!listing) throw refusal(result);
    return treeEntries(listing);
  }

  async read(path: string): Promise<OpenedFile> {
    const { dispatch } = await this.open(null);
    const read = await readExact(dispatch, path);
    if (read.status !== "ok") throw refusal(read);
    const bytes = Buffer.from(read.output, "base64");
    const decoded = decodeFile(bytes);
    if (!decoded.ok)
      throw new UserFacingError(`${path} cannot be opened in the editor: ${decoded.reason}.`, "BAD_REQUEST");
    return { path, text: decoded.text, hash: fileHash(bytes), bytes: bytes.length };
  }

  /**
   * Writes `content` to `path` if the file is still the one the person opened (`baseHash`), and the
   * gates let it (with `confirmBinding`, the binding of the question they confirmed).
   */
  async save(request: {
    path: string;
    content: string;
    baseHash: string | null;
    confirmBinding: string | null;
    person: Person;
  }): Promise<SaveOutcome> {
    const { path, content, person } = request;
    const { dispatch, ledger } = await this.open(person);
    const current = await readExact(dispatch, path);
    if (current.status !== "ok" && current.error?.code !== "not_found") throw refusal(current);
    const currentHash = current.status === "ok" ? fileHash(Buffer.from(current.output, "base64")) : null;
    const conflict = conflictOf(path, request.baseHash, currentHash);
    if (conflict) return { status: "conflict", message: conflict, currentHash };

    const call: ToolCall = { tool: "fs.write", input: { path, content } };
    const checked = await dispatch.check(call, { activeIntent: PERSON_INTENT });
    if (checked.status !== "ok" && checked.status !== "ask") throw refusal(checked);
    const mustConfirm = checked.status === "ask" && checked.gate?.confirm === true;
    // A confirmation counts only for exactly this call: other content is another question.
    if (mustConfirm && request.confirmBinding !== checked.binding)
      return { status: "confirm", reason: checked.gate?.reason ?? "", binding: checked.binding ?? "" };
    const editId = randomUUID();
    const traceIds = { runId: null, intentionId: null, cycleId: editId };
    // A plain write that would wait for a person is approved by the person clicking Save; the
    // dispatch still checks the binding against the call it runs.
    const binding = mustConfirm ? request.confirmBinding : checked.binding;
    const result = await dispatch.run(call, {
      activeIntent: PERSON_INTENT,
      approval: checked.status === "ask" && binding ? { binding, approver: person.name } : null,
      traceIds,
    });
    if (result.status !== "ok") throw refusal(result);
    const confirmed = mustConfirm ? (checked.gate?.reason ?? null) : null;

    const hash = fileHash(content);
    const events: EventInput[] = [
      {
        type: "file-edited",
        editId,
        path: relativePath(path),
        by: person,
        baseHash: request.baseHash,
        hash,
        bytes: Buffer.byteLength(content, "utf8"),
        confirmed,
      },
    ];
    if (result.trace.length > 0)
      events.push({
        type: "trace-recorded",
        ...traceIds,
        records: result.trace.map((r) => approvedBy(r, person.name)),
      });
    const changed = ledger?.workspaceChanged(traceIds);
    if (changed) events.push(changed);
    await this.deps.append(events);
    return { status: "saved", hash, editId };
  }

  /**
   * A new, empty file (a save of "" over nothing, so it is a `file-edited` with `baseHash` null). The
   * name is checked here; where it leads (outside /workspace, a protected path) is the dispatch's.
   */
  async create(request: {
    path: string;
    confirmBinding: string | null;
    person: Person;
  }): Promise<SaveOutcome> {
    const problem = newPathProblem(request.path);
    if (problem) throw new UserFacingError(problem, "BAD_REQUEST");
    const outcome = await this.save({ ...request, content: "", baseHash: null });
    return outcome.status === "conflict"
      ? { ...outcome, message: `${relativePath(request.path)} already exists.` }
      : outcome;
  }

  private open(person: Person | null) {
    return openDispatch(this.deps, person);
  }
}

/** The dispatch a person's call goes through, with a ledger that records their writes as theirs. */
export async function openDispatch(
  deps: EditorDeps,
  person: Person | null,
): Promise<{ dispatch: ToolDispatch; ledger: CycleLedger | null }> {
  const sandbox = await deps.sandbox();
  if (!sandbox)
    throw new UserFacingError(
      "This session has no sandbox: it starts with the session's first task, and is gone once the work is discarded.",
      "PRECONDITION_FAILED",
    );
  const ledger = person
    ? new CycleLedger(ledgerExecOf(sandbox, deps.timeoutMs), {
        sessionId: deps.sessionId,
        modelId: "human",
        contributor: { type: "human", author: person.name },
        ...(deps.logger ? { logger: deps.logger } : {}),
      })
    : null;
  const dispatch = sessionDispatch({
    sandbox: async () => sandbox,
    policy: () => deps.policy(),
    commandTimeoutMs: deps.timeoutMs,
    workspaceMaxBytes: deps.workspaceMaxBytes,
    ...(ledger ? { ledger } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  return { dispatch, ledger };
}

export function readExact(dispatch: ToolDispatch, path: string): Promise<ToolResult> {
  return dispatch.run({ tool: "fs.read", input: { path, exact: true } }, { activeIntent: null });
}

/** A refused or failed call as the error the person reads: the gate's or the tool's own words. */
export function refusal(result: ToolResult): UserFacingError {
  const message = result.error?.message ?? `${result.tool} did not complete.`;
  const code = result.error?.code;
  if (code === "not_found") return new UserFacingError(message, "NOT_FOUND");
  if (code === "denied" || code === "invalid_input" || code === "not_a_file" || code === "too_large")
    return new UserFacingError(message, "BAD_REQUEST");
  return new UserFacingError(message, "PRECONDITION_FAILED");
}

/** The record with its approver: the person, who approved their own write by saving it. */
export function approvedBy(record: AgentTraceRecord, name: string): AgentTraceRecord {
  const meta = arborMetadataOf(record);
  if (!meta) return record;
  return { ...record, metadata: { ...record.metadata, [ARBOR_METADATA_KEY]: { ...meta, approver: name } } };
}
