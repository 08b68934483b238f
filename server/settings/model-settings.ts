import { z } from "zod";
import { ProviderId } from "@/server/domain/vocabulary/providers";
import { rememberOpenedKey } from "@/server/events/opened-keys";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { ModelSettingValues } from "./layers";
import { type SecretBox, SecretBoxError } from "./secret-box";

/**
 * Reading and writing the model settings of one team or one project. The API key is sealed before it
 * reaches the database and only ever leaves this module as "set / not set" plus its last 4
 * characters, except through `readLayer`, which the server uses to make model requests.
 */

export type SettingsScope = { kind: "team"; teamId: string } | { kind: "project"; projectId: string };

const where = (scope: SettingsScope) =>
  scope.kind === "team" ? { teamId: scope.teamId } : { projectId: scope.projectId };

/** Bound into the ciphertext: a sealed key copied to another team or project does not open there. */
const contextOf = (scope: SettingsScope) =>
  scope.kind === "team" ? `team:${scope.teamId}` : `project:${scope.projectId}`;

const MIN_KEY_LENGTH_FOR_HINT = 16;

/** What the browser may see. */
export interface PublicModelSettings {
  provider: ProviderId | null;
  baseUrl: string | null;
  modelName: string | null;
  timeoutMs: number | null;
  apiKey: { set: boolean; hint: string | null };
  updatedAt: Date | null;
}

const blankToNull = z
  .string()
  .trim()
  .max(2_000)
  .nullable()
  .transform((value) => (value === "" ? null : value));

/** A person's edit; each null clears the field (inherit), the key has its own explicit action. */
export const ModelSettingsInput = z.object({
  provider: ProviderId.nullable(),
  baseUrl: blankToNull.refine((value) => value === null || /^https?:\/\/[^\s]+$/.test(value), {
    message: "The base URL must start with http:// or https://, e.g. http://localhost:11434/v1.",
  }),
  modelName: blankToNull,
  timeoutMs: z.number().int().min(1_000, "The timeout must be at least 1000 ms.").max(600_000).nullable(),
  apiKey: z.discriminatedUnion("action", [
    z.object({ action: z.literal("keep") }),
    z.object({ action: z.literal("clear") }),
    z.object({ action: z.literal("set"), value: z.string().trim().min(1, "Type the API key.").max(4_000) }),
  ]),
});
export type ModelSettingsInput = z.infer<typeof ModelSettingsInput>;

/** A provider this version does not know (a row from a newer one) reads as "inherit", never a crash. */
function storedProvider(value: string | null | undefined): ProviderId | null {
  const parsed = ProviderId.safeParse(value);
  return parsed.success ? parsed.data : null;
}

type Row = Awaited<ReturnType<PrismaClient["modelSettings"]["findUnique"]>>;

function toPublic(row: Row): PublicModelSettings {
  return {
    provider: storedProvider(row?.provider),
    baseUrl: row?.baseUrl ?? null,
    modelName: row?.modelName ?? null,
    timeoutMs: row?.timeoutMs ?? null,
    apiKey: { set: Boolean(row?.apiKeySealed), hint: row?.apiKeyHint ?? null },
    updatedAt: row?.updatedAt ?? null,
  };
}

export async function readPublicSettings(
  db: PrismaClient,
  scope: SettingsScope,
): Promise<PublicModelSettings> {
  return toPublic(await db.modelSettings.findUnique({ where: where(scope) }));
}

export async function saveSettings(
  db: PrismaClient,
  box: SecretBox,
  scope: SettingsScope,
  input: ModelSettingsInput,
  userId: string,
): Promise<PublicModelSettings> {
  const key =
    input.apiKey.action === "set"
      ? {
          apiKeySealed: box.seal(input.apiKey.value, contextOf(scope)),
          apiKeyHint:
            input.apiKey.value.length >= MIN_KEY_LENGTH_FOR_HINT ? input.apiKey.value.slice(-4) : null,
        }
      : input.apiKey.action === "clear"
        ? { apiKeySealed: null, apiKeyHint: null }
        : {};
  const fields = {
    provider: input.provider,
    baseUrl: input.baseUrl,
    modelName: input.modelName,
    timeoutMs: input.timeoutMs,
    updatedById: userId,
    ...key,
  };
  const row = await db.modelSettings.upsert({
    where: where(scope),
    create: { ...where(scope), ...fields },
    update: fields,
  });
  return toPublic(row);
}

/** One layer for resolution; `keyError` says why a stored key could not be used (wrong secret key…). */
export interface StoredLayer {
  values: ModelSettingValues;
  keyError: string | null;
}

/** Server-side only: the layer with its API key decrypted. A key that does not open is left out. */
export async function readLayer(
  db: PrismaClient,
  box: SecretBox,
  scope: SettingsScope,
): Promise<StoredLayer> {
  const row = await db.modelSettings.findUnique({ where: where(scope) });
  if (!row) return { values: {}, keyError: null };
  const provider = storedProvider(row.provider);
  const values: ModelSettingValues = {
    ...(provider ? { provider } : {}),
    ...(row.baseUrl ? { baseUrl: row.baseUrl } : {}),
    ...(row.modelName ? { modelName: row.modelName } : {}),
    ...(row.timeoutMs ? { timeoutMs: row.timeoutMs } : {}),
  };
  if (!row.apiKeySealed) return { values, keyError: null };
  try {
    const apiKey = box.open(row.apiKeySealed, contextOf(scope));
    rememberOpenedKey(apiKey);
    return { values: { ...values, apiKey }, keyError: null };
  } catch (error) {
    if (error instanceof SecretBoxError)
      return { values, keyError: `${scope.kind} settings: ${error.message}` };
    throw error;
  }
}
