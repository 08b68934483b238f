import { IntentStatus } from "@/server/domain/vocabulary/project-intents";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { type IntentRecord, renderIntentsFile } from "@/server/tools/intents-file";
import { type IntentFields, isMirrored, type ProjectIntent, readList } from "./project-intent";

/**
 * A project's intents in the database (the ProjectIntent table), and the file they become in a
 * session's workspace. Every function takes the project id the caller has already been checked
 * against (the tRPC builders do that); nothing here looks across projects.
 */

export interface StoredIntent extends ProjectIntent {
  updatedAt: Date;
}

type Row = {
  intentId: string;
  name: string;
  status: string;
  ownedScope: string;
  constraints: string;
  acceptanceCriteria: string;
  updatedAt: Date;
};

function fromRow(row: Row): StoredIntent {
  const status = IntentStatus.safeParse(row.status);
  return {
    intentId: row.intentId,
    name: row.name,
    // An unknown status read back is treated as blocked: shown, mirrored, never silently dropped.
    status: status.success ? status.data : "BLOCKED",
    ownedScope: readList(row.ownedScope),
    constraints: readList(row.constraints),
    acceptanceCriteria: readList(row.acceptanceCriteria),
    updatedAt: row.updatedAt,
  };
}

function columns(fields: IntentFields) {
  return {
    name: fields.name,
    status: fields.status,
    ownedScope: JSON.stringify(fields.ownedScope),
    constraints: JSON.stringify(fields.constraints),
    acceptanceCriteria: JSON.stringify(fields.acceptanceCriteria),
  };
}

export async function listIntents(db: PrismaClient, projectId: string): Promise<StoredIntent[]> {
  const rows = await db.projectIntent.findMany({ where: { projectId }, orderBy: { intentId: "asc" } });
  return rows.map(fromRow);
}

export type SaveOutcome =
  | { ok: true; intent: StoredIntent }
  | { ok: false; code: "CONFLICT" | "NOT_FOUND"; message: string };

export async function createIntent(
  db: PrismaClient,
  projectId: string,
  intent: ProjectIntent,
  userId: string,
): Promise<SaveOutcome> {
  const taken = await db.projectIntent.findUnique({
    where: { projectId_intentId: { projectId, intentId: intent.intentId } },
    select: { id: true },
  });
  if (taken)
    return {
      ok: false,
      code: "CONFLICT",
      message: `${intent.intentId} already exists in this project; choose another id.`,
    };
  const row = await db.projectIntent.create({
    data: { projectId, intentId: intent.intentId, updatedById: userId, ...columns(intent) },
  });
  return { ok: true, intent: fromRow(row) };
}

export async function updateIntent(
  db: PrismaClient,
  projectId: string,
  intentId: string,
  fields: IntentFields,
  userId: string,
): Promise<SaveOutcome> {
  const { count } = await db.projectIntent.updateMany({
    where: { projectId, intentId },
    data: { updatedById: userId, ...columns(fields) },
  });
  if (count === 0)
    return { ok: false, code: "NOT_FOUND", message: `This project has no intent ${intentId}.` };
  const row = await db.projectIntent.findUniqueOrThrow({
    where: { projectId_intentId: { projectId, intentId } },
  });
  return { ok: true, intent: fromRow(row) };
}

/** The file's entry for one intent (seed 003's field names). */
export function toIntentRecord(intent: ProjectIntent): IntentRecord {
  return {
    id: intent.intentId,
    name: intent.name,
    status: intent.status,
    owned_scope: [...intent.ownedScope],
    constraints: [...intent.constraints],
    acceptance_criteria: [...intent.acceptanceCriteria],
  };
}

/**
 * The `.orchestration/active_intents.yaml` a session of this project gets, or null when the project
 * has never had an intent (then a file the repository carries itself is left alone). Retired
 * intents are left out, so they can no longer be selected.
 */
export async function intentsFileFor(db: PrismaClient, projectId: string): Promise<string | null> {
  const intents = await listIntents(db, projectId);
  if (intents.length === 0) return null;
  return renderIntentsFile(intents.filter((intent) => isMirrored(intent.status)).map(toIntentRecord));
}
